import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { WorktreeInfo } from '../../src/core/worktree/worktree.js';
import { afterEach, beforeEach } from 'vitest';
import { destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';

/**
 * Real repositories in temp folders for the merge, pr and rm tests: a main
 * checkout on `main` with one commit, and worktree sessions made by
 * `new --worktree` (beside it, in repo.worktrees/).
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

/** git in `dir`; a moment's index.lock (a runner counting the worktree's changes) is waited out, as a user would retry. */
export function gitIn(dir: string, ...args: string[]): string {
  for (let attempt = 0; ; attempt++) {
    const r = spawnSync('git', args, { cwd: dir, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } });
    if (r.status === 0) return r.stdout.trim();
    if (!r.stderr.includes('index.lock') || attempt >= 20) throw new Error(`git ${args.join(' ')} failed in ${dir}: ${r.stderr}`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
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
export const readHost = (home: string, id: string) => JSON.parse(fs.readFileSync(hostPath(home, id), 'utf8')) as { status: string; cwd: string; runnerPid: number; worktree?: WorktreeInfo };

/**
 * A worktree session named `name`, made by `new --worktree --base main` (on
 * branch agent/<name>; with `reuse`, a branch made beforehand, reused), its
 * program exited unless `running`.
 */
export async function worktreeSession(sb: Sandbox, name: string, o: { running?: boolean; reuse?: boolean } = {}): Promise<{ id: string; w: WorktreeInfo }> {
  if (o.reuse) gitIn(sb.repo, 'branch', `agent/${name}`, 'main');
  const program = o.running ? 'exec sleep 60' : 'exit 0';
  const id = newSession(sb.home, ['--name', name, '--cwd', sb.repo, '--worktree', '--base', 'main', ...(o.reuse ? ['--reuse-branch'] : []), '--', 'sh', '-c', program]);
  await waitFor(o.running ? 'running' : 'the program to exit', () => readHost(sb.home, id).status === (o.running ? 'running' : 'exited'));
  const w = readHost(sb.home, id).worktree;
  if (!w) throw new Error(`new --worktree wrote no worktree in ${name}'s host.json`);
  return { id, w };
}

export function removeSandbox(sb: Sandbox | undefined): void {
  if (sb) fs.rmSync(sb.root, { recursive: true, force: true });
}

/** stderr as lines, for the one-line checks. */
export const lines = (text: string) => text.trim().split('\n').filter(Boolean);

/** One sandbox per test, made before each and removed after it: the object's fields are the running test's. */
export function useSandbox(): Sandbox {
  const sb = {} as Sandbox;
  beforeEach(() => void Object.assign(sb, makeSandbox(makeHome())));
  afterEach(() => {
    destroyHome(sb.home);
    removeSandbox(sb);
  });
  return sb;
}
