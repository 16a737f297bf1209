/**
 * Starting a session the way the main workflow goes, end to end in a real terminal (tmux): the
 * board's `n` form picks a kind (the demo agent: no API key), a name, a room, and a new worktree
 * of the repository the board runs in, with the branch proposed from the name; it shows what it
 * will run and the same `agent-board new` line before anything starts, keeps what stops it in
 * the form as one line (a taken name; a branch that exists), and starts it through the code
 * `agent-board new` runs. `agent-board new --interactive` asks the same on the command line.
 *
 * The form at 80x24 (the list gives way to it):
 *
 *    0 | agent-board 0 sessions
 *    1 | ╭──────────────────────────────────────────────────────────────────────────────╮
 *    2 | │ New session                                                                  │
 *    3 | │ › kind      ‹ demo ›                                                         │
 *    4 | │   name      helper                                                           │
 *   ...
 *   11 | │ runs     /usr/bin/node /.../dist/bundle/demo-agent.js --room team              │
 *   12 | │ in       a new worktree on agent/helper, room team, as helper                │
 *   13 | │ same as  agent-board new --name helper --agent demo --room team --worktree   │
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, destroyHome, makeHome } from '../helpers/home.js';
import { killAllTmux, OUTER_PS1, outerShellCommand, showScreen, tmuxAvailable, TmuxServer, type Screen } from '../helpers/tmux.js';

const OUTER = OUTER_PS1.trimEnd();

let home: string;
let scratch: string;
let repo: string;

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

beforeEach(() => {
  home = makeHome('ab-e2e-new-');
  scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ab-e2e-new-repo-')));
  repo = path.join(scratch, 'app');
  fs.mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(repo, 'README'), 'app\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'init');
});

afterEach(() => {
  killAllTmux();
  destroyHome(home);
  fs.rmSync(scratch, { recursive: true, force: true });
});

interface Rec {
  name: string;
  agent: string;
  room?: string;
  status: string;
  cwd: string;
  worktree?: { branch: string; path: string; repo: string };
  cols: number;
  rows: number;
}
const lsJson = (): Rec[] => JSON.parse(cli(home, ['ls', '--json']).stdout) as Rec[];
/** The form's line for a field, its frame taken off. */
const field = (s: Screen, label: string) => s.lines.map((l) => l.replace(/^│ (.*?)\s*│$/, '$1')).find((l) => new RegExp(`^[› ] ${label}(\\s|$)`).test(l));
/** The form's line that starts with `label`, with its wrapped continuation up to the line that starts with `next`. */
const formLine = (s: Screen, label: string, next: string) => {
  const inner = s.lines.map((l) => l.replace(/^│ (.*?)\s*│$/, '$1'));
  const from = inner.findIndex((l) => l.startsWith(`${label} `));
  const to = inner.findIndex((l, i) => i > from && l.startsWith(`${next} `));
  return from < 0 || to < 0 ? null : inner.slice(from, to).map((l) => l.trim()).join(' ');
};
const inForm = (s: Screen, what: string) => s.lines.some((l) => l.replace(/^│ (.*?)\s*│$/, '$1').startsWith(what));

async function outerTerminal(cols: number, rows: number): Promise<TmuxServer> {
  const t = TmuxServer.start({ command: outerShellCommand(home), cols, rows });
  await t.waitForScreen('the outer prompt', (s) => s.lines[0] === OUTER);
  t.typeLine(`cd ${repo}`);
  return t;
}

describe.skipIf(!tmuxAvailable())('starting a session: the n form and new --interactive (tmux)', () => {
  it('n: kind, name, room and a new worktree with its branch proposed; what it runs shown first; problems stay in the form', { timeout: 90_000 }, async () => {
    const t = await outerTerminal(80, 24);
    t.typeLine('agent-board');
    await t.waitForScreen('the empty board', (s) => s.text.includes('No sessions yet.'));
    t.type('n');
    let s = await t.waitForScreen('the form on the kind', (x) => x.text.includes('New session') && /‹ shell ›/.test(field(x, 'kind') ?? ''));
    // Which agent CLIs are installed: none on this PATH, whatever the machine has (the test's own PATH has no claude... or has it).
    expect(field(s, 'kind')).toMatch(/^› kind +‹ shell › {2}a command line$/);
    expect(field(s, 'worktree')).toBe(`  worktree  [ ] in a new worktree of ${repo}`);
    expect(field(s, 'sandbox')).toBe('  sandbox   ‹ as config.json says ›  not sandboxed');
    expect(s.lines.filter((l) => l.startsWith('╰'))).toHaveLength(1); // the whole form fits at 80x24

    // The demo kind by its letter; name, room, worktree; the branch follows the name.
    t.type('d');
    t.keys(['Tab']);
    t.type('helper');
    t.keys(['Tab', 'Tab', 'Tab', 'C-u']);
    t.type('team');
    t.keys(['Tab', 'Space']);
    s = await t.waitForScreen('the worktree on, its branch proposed', (x) => (field(x, 'branch') ?? '').includes('agent/helper'));
    expect(field(s, 'kind')).toMatch(/‹ demo ›/);
    // Wrapped when the install path is long (a CI clone sits deeper): nothing of it is cut.
    expect(formLine(s, 'runs', 'in'), showScreen(s)).toMatch(/^runs +\S*node\S* \S+\/dist\/bundle\/demo-agent\.js --room team \(demo\)$/);
    expect(inForm(s, 'in       a new worktree on agent/helper, room team, as helper')).toBe(true);
    expect(inForm(s, `same as  agent-board new --name helper --agent demo --room team --worktree`)).toBe(true);
    expect(lsJson()).toEqual([]); // nothing started yet

    t.keys(['Enter']);
    s = await t.waitForScreen('helper started and selected', (x) => /^› \S helper +demo /m.test(x.text) && x.text.includes('started helper (demo)'), { timeoutMs: 20_000 });
    const helper = lsJson().find((x) => x.name === 'helper')!;
    expect(helper).toMatchObject({ agent: 'demo', room: 'team', status: 'running', worktree: { branch: 'agent/helper', repo } });
    expect(helper.cwd).toBe(helper.worktree!.path);
    expect(fs.existsSync(path.join(helper.worktree!.path, 'README'))).toBe(true);

    // A taken name is said before anything starts; an existing branch, when it starts: both in the form, one line.
    t.type('n');
    await t.waitForScreen('the form again', (x) => x.text.includes('New session'));
    t.type('d');
    t.keys(['Tab']);
    t.type('helper');
    s = await t.waitForScreen('the taken name said', (x) => x.text.includes('a session named helper already exists; pick another name'));
    t.keys(['Enter']);
    await new Promise((r) => setTimeout(r, 500));
    expect(lsJson()).toHaveLength(1);
    t.type('2');
    t.keys(['Tab', 'Tab', 'Tab', 'Tab', 'Space', 'Tab', 'C-u']);
    t.type('agent/helper');
    s = await t.waitForScreen('the branch typed', (x) => (field(x, 'branch') ?? '').includes('agent/helper') && !x.text.includes('already exists; pick'));
    expect(inForm(s, 'same as  agent-board new --name helper2 --agent demo --worktree agent/helper')).toBe(true);
    t.keys(['Enter']);
    s = await t.waitForScreen('the branch refused in the form', (x) => x.text.includes('branch agent/helper exists already') && x.text.includes('New session'));
    expect(lsJson().map((x) => x.name)).toEqual(['helper']);
    t.keys(['Escape']);
    await t.waitForScreen('the list again', (x) => !x.text.includes('New session') && /^› \S helper /m.test(x.text));
    t.type('q');
    await t.waitForScreen('the outer prompt after q', (x) => x.text.trimEnd().endsWith(OUTER));
  });

  it('the form at 200x50 sits in the body, with the same lines; what it starts is 200x50', { timeout: 60_000 }, async () => {
    const t = await outerTerminal(200, 50);
    t.typeLine('agent-board');
    await t.waitForScreen('the empty board', (s) => s.text.includes('No sessions yet.'));
    t.type('n');
    await t.waitForScreen('the form', (x) => /‹ shell ›/.test(field(x, 'kind') ?? ''));
    t.keys(['Right']);
    const s = await t.waitForScreen('claude chosen', (x) => /‹ claude ›/.test(field(x, 'kind') ?? ''));
    expect(field(s, 'kind')).toMatch(/^› kind +‹ claude › {2}claude (not )?installed$/);
    expect(field(s, 'arguments')).toBeDefined(); // an agent's own program: the field is its arguments
    expect(inForm(s, 'runs     claude (claude, with its hooks and chat tools)')).toBe(true);
    expect(s.lines.find((l) => l.startsWith('╭'))!.length).toBe(100);
    // A shell started from here gets the board's own terminal size, as `new` at a terminal does:
    // its first attach from the board resizes nothing, and the preview shows it whole.
    t.keys(['Left']);
    await t.waitForScreen('shell chosen', (x) => /‹ shell ›/.test(field(x, 'kind') ?? ''));
    t.keys(['Enter']);
    await t.waitForScreen('the shell started', (x) => /^› \S \S+ +shell /m.test(x.text));
    expect(lsJson().map((x) => [x.cols, x.rows])).toEqual([[200, 50]]);
    t.type('q');
    await t.waitForScreen('the outer prompt after q', (x) => x.text.trimEnd().endsWith(OUTER));
  });

  it('new --interactive asks the same, with the same defaults, shows the same lines, and starts it once confirmed', { timeout: 60_000 }, async () => {
    const t = await outerTerminal(120, 35);
    t.typeLine('agent-board new --interactive --room team');
    await t.waitForScreen('the kinds and the first question', (x) => /^kinds: shell, claude \((not )?installed\), codex/m.test(x.text) && x.text.includes('kind [shell]:'));
    t.typeLine('demo');
    await t.waitForScreen('the command question', (x) => x.text.includes('command (empty: the demo agent):'));
    t.typeLine('');
    await t.waitForScreen('the name question with its default', (x) => x.text.includes('name [demo-1]:'));
    t.typeLine('asker');
    await t.waitForScreen('the folder question', (x) => x.text.includes(`folder [${repo}]:`));
    t.typeLine('');
    await t.waitForScreen('the room question, the flag its default', (x) => x.text.includes('room [team]:'));
    t.typeLine('');
    await t.waitForScreen('the worktree question', (x) => x.text.includes('in a new worktree? (y/n) [n]:'));
    t.typeLine('y');
    await t.waitForScreen('the branch question', (x) => x.text.includes('branch [agent/asker]:'));
    t.typeLine('');
    await t.waitForScreen('the sandbox question', (x) => x.text.includes('sandboxed? (y/n) [n]:'));
    t.typeLine('');
    const s = await t.waitForScreen('what it will run, and the question', (x) => x.text.includes('start it? (y/n) [y]:'));
    expect(s.text).toMatch(/^runs: +\S*node\S* \S+\/dist\/bundle\/demo-agent\.js --room team \(kind demo\)$/m);
    expect(s.text).toContain('in:      a new worktree on agent/asker, room team, as asker');
    expect(s.text).toContain('same as: agent-board new --name asker --agent demo --room team --worktree');
    t.typeLine('');
    await t.waitForScreen('its id', (x) => /^[0-9a-f]{8}$/m.test(x.text) && x.text.trimEnd().endsWith(OUTER));
    expect(lsJson()[0]).toMatchObject({ name: 'asker', agent: 'demo', room: 'team', worktree: { branch: 'agent/asker' } });

    // No: nothing starts, and it says so.
    t.typeLine('agent-board new -i; echo "exit=$?"');
    const last = (x: Screen) => x.lines.filter((l) => l.trim()).at(-1) ?? '';
    await t.waitForScreen('the first question', (x) => last(x) === 'kind [shell]:');
    for (const a of ['', '', 'x1', '', '', 'n', '']) {
      t.typeLine(a);
      await new Promise((r) => setTimeout(r, 150));
    }
    await t.waitForScreen('the confirmation', (x) => last(x) === 'start it? (y/n) [y]:');
    t.typeLine('n');
    await t.waitForScreen('nothing started', (x) => x.text.includes('agent-board: nothing started') && x.text.includes('exit=1'));
    expect(lsJson().map((x) => x.name)).toEqual(['asker']);
  });
});
