/**
 * The git CLI, the one users have: every git call of ours goes through here.
 * How it ended is data (code, stdout, stderr); a missing git is one error
 * with its own exit code. Never a shell: arguments go as they are.
 */
import { EXIT, UserError } from '../errors.js';
import { runCommand, type RunResult } from '../process/run.js';
import { runCommandSync } from '../process/run-sync.js';

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

/**
 * What is kept of git's output: a whole diff or file list of any repository we would show; past
 * it, the async call's output is cut and the sync call fails (ENOBUFS).
 */
const GIT_OUTPUT_LIMIT = 256 * 1024 * 1024;

/** Runs git and waits; rejects only when git cannot be started (GitMissingError). */
export async function git(args: readonly string[], o: GitOptions): Promise<GitResult> {
  const keep = { limit: GIT_OUTPUT_LIMIT };
  return gitResult(await runCommand('git', args, { cwd: o.cwd, env: gitEnv(o.env), input: o.input ?? '', stdout: keep, stderr: keep }));
}

/** The same, synchronously (for the CLI's short calls). */
export function gitSync(args: readonly string[], o: GitOptions): GitResult {
  return gitResult(runCommandSync('git', args, { cwd: o.cwd, env: gitEnv(o.env), input: o.input ?? '', maxBuffer: GIT_OUTPUT_LIMIT }));
}

function gitResult(r: RunResult): GitResult {
  if (r.error?.code === 'ENOENT') throw new GitMissingError();
  if (r.error) throw r.error;
  return { code: r.code ?? 1, stdout: r.stdout, stderr: r.stderr };
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
