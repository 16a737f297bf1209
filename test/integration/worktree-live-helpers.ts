import fs from 'node:fs';
import { expect } from 'vitest';
import type { WorktreeInfo, WorktreeStats } from '../../src/core/worktree/worktree.js';
import { worktreeStats } from '../../src/state/worktree/worktree-count.js';
import { cli, destroyHome, makeHome, waitFor } from '../helpers/home.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { makeRepo } from './worktree-new-helpers.js';

export type Counts = Omit<WorktreeStats, 'at'>;
export const counts = ({ at: _at, ...s }: WorktreeStats): Counts => s;

interface Row {
  name: string;
  status: string;
  worktree: WorktreeInfo;
  worktreeStats?: WorktreeStats;
}

const homes: string[] = [];
const roots: string[] = [];

/** The homes and repositories setup() made, removed (runners killed): for afterEach. */
export function cleanUp(): void {
  for (const h of homes.splice(0)) destroyHome(h);
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
}

/** A repository and a worktree session `live` in it, running a shell nobody types into. */
export function setup() {
  const home = makeHome();
  homes.push(home);
  const { root, repo } = makeRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
  roots.push(root);
  const r = cli(home, ['new', '--name', 'live', '--cwd', repo, '--worktree', '--', '/bin/sh']);
  expect(r.code, r.stderr).toBe(0);
  const row = (): Row => (JSON.parse(cli(home, ['ls', '--json']).stdout) as Row[]).find((x) => x.name === 'live')!;
  const info = row().worktree;
  /** What a count from scratch says now: the truth to compare with. */
  const truth = async (): Promise<Counts> => counts(await worktreeStats(info, REAL_TIME.clock));
  /** What `ls --json` shows. */
  const shown = (): Counts | undefined => {
    const s = row().worktreeStats;
    return s && counts(s);
  };
  /** Waits (generously: the runner counts within 2 s) for `ls` to show the truth, which must be `expected` in part. */
  const follows = async (what: string, expected: Partial<Counts>): Promise<void> => {
    const want = await truth();
    expect(want, what).toMatchObject(expected);
    const t0 = Date.now();
    await waitFor(`${what} counted`, () => JSON.stringify(shown()) === JSON.stringify(want) || null, 15_000, 100);
    console.log(`${what}: shown by ls ${Date.now() - t0} ms after it was made`);
  };
  return { home, repo, wt: info.path, row, truth, shown, follows };
}
