/**
 * The git CLI, the one users have: every git call of ours goes through here.
 * How it ended is data (code, stdout, stderr); a missing git is one error
 * with its own exit code. Never a shell: arguments go as they are.
 */
import { spawn, spawnSync } from 'node:child_process';
import { EXIT, UserError } from './errors.js';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  input?: string;
}

/**
 * Git's own prompts (credentials, editors) never wait on a terminal we do not
 * have, and our reads take no optional locks: a `git status` that refreshes
 * the index takes index.lock, and the runner counting a worktree's changes
 * would then make the user's own `git add` there fail now and then.
 */
function gitEnv(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true', GIT_MERGE_AUTOEDIT: 'no', GIT_OPTIONAL_LOCKS: '0', LC_ALL: 'C', ...extra };
}

export class GitMissingError extends UserError {
  constructor() {
    super('git is not installed (or not on PATH): install git to use worktrees', EXIT.gitMissing);
  }
}

/** Runs git and waits; rejects only when git cannot be started (GitMissingError). */
export function git(args: readonly string[], o: GitOptions): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', args, { cwd: o.cwd, env: gitEnv(o.env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (err: NodeJS.ErrnoException) => reject(err.code === 'ENOENT' ? new GitMissingError() : err));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    // A git that exits without reading its input (most do, fast) makes the write fail with EPIPE: how it ended is in `close`.
    child.stdin.on('error', () => undefined);
    child.stdin.end(o.input ?? '');
  });
}

/** The same, synchronously (for the CLI's short calls). */
export function gitSync(args: readonly string[], o: GitOptions): GitResult {
  const r = spawnSync('git', args, { cwd: o.cwd, env: gitEnv(o.env), input: o.input ?? '', encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.error && 'code' in r.error && r.error.code === 'ENOENT') throw new GitMissingError();
  if (r.error) throw r.error;
  return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/** git's own first line of complaint, for a one-line error. */
export function gitComplaint(r: GitResult): string {
  const line = (r.stderr || r.stdout).split('\n').map((l) => l.replace(/^(fatal|error): /, '').trim()).find((l) => l !== '');
  return line ?? `git exited with code ${r.code}`;
}

/** The top folder of the repository `dir` is in, or null when it is not in one. */
export function repoRoot(dir: string): string | null {
  const r = gitSync(['rev-parse', '--show-toplevel'], { cwd: dir });
  return r.code === 0 ? r.stdout.trim() : null;
}
