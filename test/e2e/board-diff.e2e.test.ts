/**
 * Reviewing a worktree session's diff on the board, end to end in a real
 * terminal (tmux), against a real runner started with `new --worktree` on a
 * real repository: D shows the session's changes (a commit's file and an
 * untracked one), c writes a comment on a line, S sends it, and the program
 * (stdin-recorder.mjs, which writes down every byte it reads) gets it
 * exactly once, `file:line: comment` and Enter; a second S sends nothing.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { count, received, RECORDER, recorderDir, recorderReady } from '../helpers/control.js';
import { cli, destroyHome, makeHome, waitFor } from '../helpers/home.js';
import { killAllTmux, OUTER_PS1, outerShellCommand, showScreen, tmuxAvailable, TmuxServer, type Screen } from '../helpers/tmux.js';

const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: GIT_ENV });

let home: string;
let repo: string;

beforeEach(() => {
  home = makeHome('ab-e2e-diff-');
  repo = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ab-e2e-diff-repo-')));
  git(repo, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(repo, 'app.txt'), 'alpha\nbeta\ngamma\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'init');
});

afterEach(() => {
  killAllTmux();
  destroyHome(home);
  fs.rmSync(repo, { recursive: true, force: true });
});

const footer = (s: Screen) => s.lines[s.lines.length - 2] ?? '';

describe.skipIf(!tmuxAvailable())('reviewing a diff on the board (tmux)', () => {
  it('D shows the changes, c comments on a line, S sends the comment to the session exactly once', async () => {
    const dir = recorderDir(home);
    const r = cli(home, ['new', '--name', 'rev', '--worktree', '--cwd', repo, '--', process.execPath, RECORDER, dir]);
    expect(r.code, r.stderr).toBe(0);
    await recorderReady(dir);
    const rec = (JSON.parse(cli(home, ['ls', '--json']).stdout) as { name: string; worktree?: { path: string } }[]).find((x) => x.name === 'rev')!;
    const wt = rec.worktree!.path;
    fs.writeFileSync(path.join(wt, 'app.txt'), 'alpha\nBETA\ngamma\n');
    git(wt, 'commit', '-qam', 'shout');
    fs.writeFileSync(path.join(wt, 'notes.txt'), 'untracked note\n');

    const t = TmuxServer.start({ command: outerShellCommand(home), cols: 120, rows: 35 });
    await t.waitForScreen('the outer prompt', (s) => s.lines[0] === OUTER_PS1.trimEnd());
    t.typeLine('agent-board');
    await t.waitForScreen('the board', (s) => s.lines.some((l) => /^› \S rev /.test(l)));

    t.type('D');
    let s = await t.waitForScreen('the diff', (x) => x.text.includes('diff of rev: 2 files +2 -1') && x.text.includes('+untracked note'));
    expect(s.lines.some((l) => /^app\.txt +\+1 -1  app\.txt  \+1 -1/.test(l)), showScreen(s)).toBe(true);
    expect(s.text).toContain('@@ -1,3 +1,3 @@');

    t.keys(['j', 'j', 'j', 'j']); // the title, the hunk header, alpha, -beta: onto +BETA
    t.type('c');
    await t.waitForScreen('the comment field', (x) => x.text.includes('comment on app.txt:2:'));
    t.type('why shout?');
    t.keys(['Enter']);
    s = await t.waitForScreen('the comment listed', (x) => x.lines.includes('· app.txt:2: why shout?'));
    // One comment is "1 comment", not "1 comments".
    expect(s.text).toContain('diff of rev: 2 files +2 -1, 1 comment (1 unsent)');

    // ? lists the keys; Esc closes the list and leaves the review (and its comment) open.
    t.type('?');
    await t.waitForScreen('the key list', (x) => x.text.includes('send the comments as one prompt'));
    t.keys(['Escape']);
    s = await t.waitForScreen('the review again', (x) => !x.text.includes('send the comments as one prompt') && x.lines.includes('· app.txt:2: why shout?'));
    expect(s.text).toContain('diff of rev');

    t.type('S');
    s = await t.waitForScreen('sent', (x) => footer(x).includes('1 comment sent to rev (applied)') && x.lines.includes('✓ app.txt:2: why shout?'));
    await waitFor('Enter after the comment', () => received(dir).endsWith('\r'));
    expect(received(dir)).toBe('app.txt:2: why shout?\r');

    t.type('S');
    await t.waitForScreen('nothing more to send', (x) => footer(x).includes('no unsent comments'));
    await new Promise((res) => setTimeout(res, 500));
    expect(count(received(dir), 'why shout?')).toBe(1);

    t.keys(['Escape']);
    await t.waitForScreen('the board again', (x) => !x.text.includes('diff of rev') && x.lines.some((l) => /^› \S rev /.test(l)));
  });
});
