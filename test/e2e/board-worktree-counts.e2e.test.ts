/**
 * A worktree session's row on the board follows its worktree, end to end in
 * a real terminal (tmux) with a real runner on a real repository: a commit
 * made in the worktree and `agent-board merge` each change the counts on the
 * row, with nothing typed into the session; after the session exited, the
 * board follows it still (a commit, a merge).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, destroyHome, makeHome } from '../helpers/home.js';
import { killAllTmux, OUTER_PS1, outerShellCommand, tmuxAvailable, TmuxServer } from '../helpers/tmux.js';

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV });

let home: string;
let repo: string;

beforeEach(() => {
  home = makeHome('ab-e2e-wtc-');
  repo = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ab-e2e-wtc-repo-')));
  git(repo, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(repo, 'app.txt'), 'alpha\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'init');
});

afterEach(() => {
  killAllTmux();
  destroyHome(home);
  fs.rmSync(`${repo}.worktrees`, { recursive: true, force: true });
  fs.rmSync(repo, { recursive: true, force: true });
});

describe.skipIf(!tmuxAvailable())("a worktree session's counts on the board (tmux)", () => {
  it('change after a commit and a merge, while the session runs and after it exited', async () => {
    const r = cli(home, ['new', '--name', 'wt', '--worktree', '--cwd', repo, '--', '/bin/sh']);
    expect(r.code, r.stderr).toBe(0);
    const wt = (JSON.parse(cli(home, ['ls', '--json']).stdout) as { worktree: { path: string } }[])[0]!.worktree.path;

    const t = TmuxServer.start({ command: outerShellCommand(home), cols: 160, rows: 30 });
    await t.waitForScreen('the outer prompt', (s) => s.lines[0] === OUTER_PS1.trimEnd());
    t.typeLine('agent-board');
    // The session's row, left of the preview (whose title shows the counts too).
    const row = (text: string) => (s: { lines: string[] }) => s.lines.some((l) => / wt /.test(l.split('│')[0]!) && l.split('│')[0]!.includes(text));
    await t.waitForScreen('the first count', row('⎇ agent/wt +0 -0 0 files ↑0 ↓0'));

    fs.appendFileSync(path.join(wt, 'app.txt'), 'beta\n');
    git(wt, 'commit', '-qam', 'beta');
    await t.waitForScreen('the commit counted', row('⎇ agent/wt +1 -0 1 file ↑1 ↓0'));
    expect(cli(home, ['merge', 'wt']).code).toBe(0);
    await t.waitForScreen('the merge counted', row('⎇ agent/wt +0 -0 0 files ↑0 ↓0'));

    expect(cli(home, ['kill', 'wt']).code).toBe(0);
    await t.waitForScreen('ended (killed)', (s) => s.lines.some((l) => / wt .*(killed|SIGHUP)/.test(l.split('│')[0]!)));
    fs.appendFileSync(path.join(wt, 'app.txt'), 'gamma\n');
    await t.waitForScreen('an edit after the exit counted', row('⎇ agent/wt +1 -0 1 file ↑0 ↓0 ✎1'));
    git(wt, 'commit', '-qam', 'gamma');
    await t.waitForScreen('a commit after the exit counted', row('⎇ agent/wt +1 -0 1 file ↑1 ↓0'));
    expect(cli(home, ['merge', 'wt']).code).toBe(0);
    await t.waitForScreen('a merge after the exit counted', row('⎇ agent/wt +0 -0 0 files ↑0 ↓0'));
  });
});
