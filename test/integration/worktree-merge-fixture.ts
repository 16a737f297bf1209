import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { WorktreeInfo } from '../../src/core/worktree.js';
import { cli, newSession, waitFor } from '../helpers/home.js';

/**
 * Real repositories in temp folders for the merge, pr and rm tests: a main
 * checkout on `main` with one commit, and worktree sessions made the way
 * `new --worktree` makes them (git worktree add -b, then the session in it,
 * with `worktree` in its host.json).
 */

/** A fixed identity, and no user or system config, so commits and merges behave the same anywhere (CI runs as root). */
const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
};
Object.assign(process.env, GIT_ENV);

export function gitIn(dir: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed in ${dir}: ${r.stderr}`);
  return r.stdout.trim();
}

/** Whether git succeeds (a ref exists, an ancestor test holds). */
export function gitOk(dir: string, ...args: string[]): boolean {
  return spawnSync('git', args, { cwd: dir, env: { ...process.env, ...GIT_ENV } }).status === 0;
}

export function commitFile(dir: string, file: string, text: string, message = `change ${file}`): string {
  fs.writeFileSync(path.join(dir, file), text);
  gitIn(dir, 'add', file);
  gitIn(dir, 'commit', '-q', '-m', message);
  return gitIn(dir, 'rev-parse', 'HEAD');
}

export interface Sandbox {
  root: string;
  repo: string;
  home: string;
}

/** A temp folder with a repository `repo` (main, one commit of a.txt). */
export function makeSandbox(home: string): Sandbox {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ab-wt-')));
  const repo = path.join(root, 'repo');
  fs.mkdirSync(repo);
  gitIn(repo, 'init', '-q', '-b', 'main');
  commitFile(repo, 'a.txt', 'one\ntwo\nthree\n', 'first');
  return { root, repo, home };
}

const hostPath = (home: string, id: string) => path.join(home, 'sessions', id, 'host.json');
export const readHost = (home: string, id: string) => JSON.parse(fs.readFileSync(hostPath(home, id), 'utf8')) as { status: string; cwd: string; worktree?: WorktreeInfo };

/**
 * A worktree session named `name` on branch agent/<name>, exited (its runner
 * gone, so host.json is ours to patch). With `running`, it is restarted so a
 * runner serves it with the worktree in its record (the program exits on its
 * first run only, then sleeps).
 */
export async function worktreeSession(sb: Sandbox, name: string, o: { running?: boolean; createdBranch?: boolean } = {}): Promise<{ id: string; w: WorktreeInfo }> {
  const wtPath = path.join(sb.root, `wt-${name}`);
  const branch = `agent/${name}`;
  gitIn(sb.repo, 'worktree', 'add', '-q', '-b', branch, wtPath, 'main');
  const marker = path.join(sb.root, `ran-${name}`);
  const id = newSession(sb.home, ['--name', name, '--cwd', wtPath, '--', 'sh', '-c', `test -f ${marker} || { touch ${marker}; exit 0; }; exec sleep 60`]);
  await waitFor('the first run to exit', () => readHost(sb.home, id).status === 'exited');
  const w: WorktreeInfo = { repo: sb.repo, path: wtPath, branch, base: 'main', baseCommit: gitIn(sb.repo, 'rev-parse', 'main'), createdBranch: o.createdBranch ?? true };
  fs.writeFileSync(hostPath(sb.home, id), JSON.stringify({ ...readHost(sb.home, id), worktree: w }, null, 2));
  if (o.running) {
    const r = cli(sb.home, ['restart', name]);
    if (r.code !== 0) throw new Error(`restart failed: ${r.stderr}`);
    await waitFor('running', () => readHost(sb.home, id).status === 'running');
  }
  return { id, w };
}

export function removeSandbox(sb: Sandbox | undefined): void {
  if (sb) fs.rmSync(sb.root, { recursive: true, force: true });
}

/** stderr as lines, for the one-line checks. */
export const lines = (text: string) => text.trim().split('\n').filter(Boolean);
