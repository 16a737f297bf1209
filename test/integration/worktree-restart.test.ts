/**
 * A worktree deleted by hand under a session: `restart` says so in one line
 * (it cannot start there), `ls` still lists it, and nothing crashes or loops.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, destroyHome, makeHome, waitFor } from '../helpers/home.js';
import { makeRepo } from './worktree-new-helpers.js';

let home: string;
let root: string;
let repo: string;
beforeEach(() => {
  home = makeHome('ab-wt-restart-');
  ({ root, repo } = makeRepo());
});
afterEach(() => {
  destroyHome(home);
  fs.rmSync(root, { recursive: true, force: true });
});

type Rec = { name: string; status: string; cwd: string; worktreeStats?: { missing?: boolean } };
const rec = (name: string) => (JSON.parse(cli(home, ['ls', '--json']).stdout) as Rec[]).find((s) => s.name === name)!;

describe('a worktree deleted by hand', () => {
  it('restart is one line (exit 9: its worktree is gone), not a crash; ls lists the session and says the worktree is gone', async () => {
    const made = cli(home, ['new', '--name', 'wt', '--worktree', '--cwd', repo, '--', 'sh']);
    expect(made.code, made.stderr).toBe(0);
    const dir = rec('wt').cwd;
    expect(cli(home, ['kill', 'wt']).code).toBe(0);
    await waitFor('exited', () => rec('wt').status === 'exited');
    fs.rmSync(dir, { recursive: true, force: true });
    const r = cli(home, ['restart', 'wt']);
    expect(r.code).toBe(9);
    expect(r.stderr).toBe(`agent-board: session wt cannot start: its folder ${dir} is gone (its worktree was deleted by hand?); remove it with: agent-board rm wt\n`);
    expect(rec('wt').status).toBe('exited');
    const ls = cli(home, ['ls']);
    expect(ls.code).toBe(0);
    expect(ls.stdout).toMatch(/\bwt\b/);
  });
});
