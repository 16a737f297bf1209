/**
 * The board reaching into sessions, end to end in a real terminal (tmux),
 * against real runners and PTYs started with the CLI: a digit answers a
 * waiting session's dialog (test/fixtures/programs/dialog.mjs, run as the
 * claude kind so its screen rules mark it waiting), `e` shows the runner's
 * explanation of that state, `i` types into a shell and Ctrl-\ comes back,
 * and `p` sends one prompt to two marked sessions,
 * each of which receives it exactly once (stdin-recorder.mjs writes down
 * every byte it reads).
 *
 * What the board looks like here (120x35; the list above the preview):
 *
 *    0 | agent-board 2 sessions  ◆ 1 waiting  ● 1 idle
 *    1 | › ◆ asker    claude  waiting      1s  Enter to confirm · Esc to cancel
 *    2 |   ● sh       shell   idle         1s  INNER$
 *    3 | ── asker (waiting) claude 120x35 ────────
 *    4 | ▌ Do you want to proceed? 1-9 answers
 *    5 | ▌ 1 Yes
 *    6 | ▌ 2 No, and tell Claude what to do differently
 *    7 |  Bash command                      (the screen itself)
 *   ...
 *   33 | ↑↓ select  Enter attach  ...  1-9 answer  ...  ? help  q quit
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { count, received, RECORDER } from '../helpers/control.js';
import { cli, destroyHome, makeHome, peekLines, ROOT, waitFor, waitForPeekLines } from '../helpers/home.js';
import { killAllTmux, OUTER_PS1, outerShellCommand, POLL_MS, showScreen, tmuxAvailable, TmuxServer, type Screen } from '../helpers/tmux.js';

const OUTER = OUTER_PS1.trimEnd();
const INNER_PS1 = 'INNER$ ';
const INNER = INNER_PS1.trimEnd();
/** Session environment: a recognisable prompt and no history file written anywhere. */
const SESSION_ENV = { PS1: INNER_PS1, PROMPT_COMMAND: '', HISTFILE: '/dev/null' };
const DIALOG = path.join(ROOT, 'test', 'fixtures', 'programs', 'dialog.mjs');
const BASH = ['bash', '--norc', '--noprofile'];

let home: string;
let scratch: string[] = [];

beforeEach(() => {
  home = makeHome('ab-e2e-board-io-');
  scratch = [];
});

afterEach(() => {
  // tmux first: the board in its pane gets SIGHUP before the sessions go.
  killAllTmux();
  destroyHome(home);
  for (const d of scratch) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  scratch.push(d);
  return d;
}

/** Starts a session in the background with the CLI: `new --name NAME ARGS...`. */
function newSession(name: string, args: string[]): void {
  const r = cli(home, ['new', '--name', name, ...args], { env: SESSION_ENV });
  if (r.code !== 0) throw new Error(`new failed (${r.code}): ${r.stderr}`);
}

function stateOf(name: string): string | undefined {
  const r = cli(home, ['ls', '--json']);
  if (r.code !== 0) throw new Error(`ls --json failed (${r.code}): ${r.stderr}`);
  return (JSON.parse(r.stdout) as { name: string; state: string }[]).find((x) => x.name === name)?.state;
}

const waitForPeek = (name: string, what: string, pred: (lines: string[]) => boolean) => waitForPeekLines(home, name, what, pred, POLL_MS);

// ---- the board on screen ---------------------------------------------------------

const HEADER = /^agent-board (\d+) sessions?\b/;

/** The footer: the board's last row (Ink draws one row short of the terminal). */
const footer = (s: Screen) => s.lines[s.lines.length - 2] ?? '';

/** The rows of the list: marker (› selected, ! rang), mark (* marked for a prompt), glyph, name. */
function rows(s: Screen): { selected: boolean; marked: boolean; name: string; line: string }[] {
  const out = [];
  for (const line of s.lines.slice(1)) {
    const m = /^([›! ])([* ])\S (\S+)\s/.exec(line);
    if (!m) break;
    out.push({ selected: m[1] === '›', marked: m[2] === '*', name: m[3]!, line });
  }
  return out;
}

const selectedName = (s: Screen) => rows(s).find((r) => r.selected)?.name ?? null;
const isBoard = (s: Screen) => HEADER.test(s.lines[0] ?? '') && /q quit|Esc/.test(footer(s));

async function outerTerminal(): Promise<TmuxServer> {
  const t = TmuxServer.start({ command: outerShellCommand(home), cols: 120, rows: 35 });
  await t.waitForScreen('the outer prompt', (s) => s.lines[0] === OUTER);
  return t;
}

async function openBoard(t: TmuxServer, what: string, pred: (s: Screen) => boolean): Promise<Screen> {
  t.typeLine('agent-board');
  return t.waitForScreen(`the board with ${what}`, (s) => isBoard(s) && pred(s));
}

describe.skipIf(!tmuxAvailable())('the board reaching into sessions (tmux)', () => {
  it("shows a waiting session's question and options, and a digit answers it; a digit on a session that is not waiting does nothing", async () => {
    newSession('asker', ['--agent', 'claude', '--command', process.execPath, '--', DIALOG]);
    newSession('sh', ['--', ...BASH]);
    await waitFor('asker waiting (its dialog on screen)', () => stateOf('asker') === 'waiting');
    await waitForPeek('sh', 'its prompt', (l) => l[l.length - 1] === INNER);
    const t = await outerTerminal();

    let s = await openBoard(t, "asker's dialog over its preview", (x) => selectedName(x) === 'asker' && x.lines.includes('▌ Do you want to proceed? 1-9 answers'));
    const card = s.lines.indexOf('▌ Do you want to proceed? 1-9 answers');
    expect(s.lines[card - 1], showScreen(s)).toMatch(/^── asker \(waiting\) claude \d+x\d+ ─+$/);
    expect(s.lines.slice(card + 1, card + 3)).toEqual(['▌ 1 Yes', '▌ 2 No, and tell Claude what to do differently']);
    expect(footer(s)).toContain('1-9 answer');

    // On the idle shell a digit is nobody's: the footer does not offer it, and the shell gets nothing.
    t.keys(['j']);
    s = await t.waitForScreen('sh selected, no card', (x) => isBoard(x) && selectedName(x) === 'sh' && !x.text.includes('▌'));
    expect(footer(s)).not.toContain('1-9 answer');
    t.type('3');
    t.keys(['k']);
    await t.waitForScreen('asker selected again', (x) => isBoard(x) && selectedName(x) === 'asker' && x.lines.includes('▌ 1 Yes'));

    t.type('2');
    const answered = await waitForPeek('asker', 'the answer it got', (l) => l[0] === 'answered: "2"');
    expect(answered.filter((l) => l.startsWith('then:'))).toEqual([]); // the digit alone, nothing after it
    s = await t.waitForScreen('the footer saying so, and the card gone with the dialog', (x) => isBoard(x) && footer(x).includes('typed 2 into asker') && !x.text.includes('▌'));
    expect(s.text).toContain('answered: "2"'); // in the preview too
    const sh = await peekLines(home, 'sh');
    expect(sh[sh.length - 1]).toBe(INNER); // never typed: the 3 went nowhere
  });

  it("e explains a session's state from its runner: the deciding layer and rule, each layer, the hooks; Esc closes", async () => {
    newSession('asker', ['--agent', 'claude', '--command', process.execPath, '--', DIALOG]);
    await waitFor('asker waiting (its dialog on screen)', () => stateOf('asker') === 'waiting');
    const t = await outerTerminal();
    await openBoard(t, 'asker selected', (x) => selectedName(x) === 'asker');

    t.type('e');
    const s = await t.waitForScreen("the runner's explanation", (x) => x.lines.some((l) => /^── why asker is waiting ─+$/.test(l)) && x.lines.some((l) => l.startsWith('rules ')));
    const at = (label: string) => s.lines.find((l) => l.startsWith(label.padEnd(9))) ?? '';
    expect(at('state'), showScreen(s)).toMatch(/^state {4}waiting from screen, since \d\d:\d\d:\d\d \(\d+s ago\)$/);
    expect(at('decided')).not.toBe('');
    expect(at('kind')).toMatch(/^kind {5}claude\b/);
    expect(at('screen')).toMatch(/^screen {3}waiting .* rule claude\.\S+/); // the dialog's rule, by name and file
    expect(s.lines).toContain('           read: "Enter to confirm · Esc to cancel"');
    expect(at('hooks')).toMatch(/^hooks {4}(wired|not wired)\b/);
    expect(footer(s)).toBe('Esc close');

    t.keys(['Escape']);
    await t.waitForScreen('the preview again', (x) => isBoard(x) && !x.text.includes('── why asker') && x.lines.includes('▌ 1 Yes'));
  });

  it('i types into a shell as typed (Enter, arrow keys), the preview shows it, and Ctrl-\\ comes back to the board', async () => {
    newSession('sh', ['--', ...BASH]);
    await waitForPeek('sh', 'its prompt', (l) => l[l.length - 1] === INNER);
    const t = await outerTerminal();
    await openBoard(t, 'sh selected', (x) => selectedName(x) === 'sh');

    t.type('i');
    let s = await t.waitForScreen('the typing bar', (x) => x.lines[0] === ' typing into sh — Ctrl-\\ back');
    expect(footer(s)).toBe('keys go to sh as typed; Ctrl-\\ back to the board');
    t.type('echo hi-$((6*7))');
    t.keys(['Enter']);
    // The next line only once the shell is back at its prompt: typed ahead, the terminal would echo it raw.
    await t.waitForScreen('the first answer and the prompt again', (x) => x.lines.includes('hi-42') && x.lines.filter((l) => l.startsWith(INNER)).length >= 2);
    // Escape sequences go as they are: two Left arrows put the X inside the word (readline in the session).
    t.type('echo abc');
    t.keys(['Left', 'Left']);
    t.type('X');
    t.keys(['Enter']);
    s = await t.waitForScreen("the shell's answers in the preview, which is the whole view", (x) => x.lines.includes('hi-42') && x.lines.includes('aXbc'));
    expect(s.lines[0]).toBe(' typing into sh — Ctrl-\\ back');
    expect(s.lines[1]).toMatch(/^── sh \(\w+\) \d+x\d+ ─+$/);

    t.keys(['C-\\']);
    s = await t.waitForScreen('the board again', (x) => isBoard(x) && footer(x).includes('stopped typing into sh'));
    expect(selectedName(s)).toBe('sh');
    const peeked = await peekLines(home, 'sh');
    expect(peeked).toContain('hi-42');
    expect(peeked).toContain('aXbc');
    // Keys are the board's again: q quits it, and the session runs on.
    t.type('q');
    await t.waitForScreen('the outer prompt after the board', (x) => x.lines.some((l) => l === OUTER) && !isBoard(x));
    expect(stateOf('sh')).not.toBe('exited');
  });

  it('p sends one prompt to the two marked sessions, each typed exactly once, and says how it went in each', async () => {
    const dirs = { one: tempDir('ab-e2e-rec1-'), two: tempDir('ab-e2e-rec2-'), three: tempDir('ab-e2e-rec3-') };
    for (const [name, dir] of Object.entries(dirs)) newSession(name, ['--', process.execPath, RECORDER, dir]);
    for (const name of Object.keys(dirs)) await waitForPeek(name, 'the recorder ready', (l) => l.some((x) => x.startsWith('recorder ready')));
    const t = await outerTerminal();
    await openBoard(t, 'three recorders', (x) => rows(x).length === 3 && selectedName(x) === 'one');

    // Space marks one and three.
    t.type(' ');
    t.keys(['j', 'j']);
    t.type(' ');
    let s = await t.waitForScreen('two rows marked', (x) => isBoard(x) && rows(x).filter((r) => r.marked).map((r) => r.name).join() === 'one,three');
    expect(s.lines[0]).toMatch(/\* 2 marked/);
    expect(footer(s)).toContain('p prompt marked');

    t.type('p');
    await t.waitForScreen('the prompt line', (x) => x.lines.some((l) => /^── prompt to one, three ─+$/.test(l)) && footer(x) === 'Enter send  Esc cancel');
    t.type('hello board');
    await t.waitForScreen('the text on the line', (x) => x.lines.some((l) => l.startsWith('› hello board')));
    t.keys(['Enter']);
    s = await t.waitForScreen('both applied', (x) => footer(x).includes('prompt sent to 2 sessions: 2 applied'));
    expect(s.lines).toContain('sent: hello board');
    expect(s.lines.some((l) => /^ {2}one {4}applied$/.test(l)), showScreen(s)).toBe(true);
    expect(s.lines.some((l) => /^ {2}three {2}applied$/.test(l)), showScreen(s)).toBe(true);

    // What each program read: the prompt once, then Enter; the unmarked one nothing.
    await waitFor('Enter after the text in both', () => received(dirs.one).endsWith('\r') && received(dirs.three).endsWith('\r'));
    expect(received(dirs.one)).toBe('hello board\r');
    expect(received(dirs.three)).toBe('hello board\r');
    expect(count(received(dirs.one), 'hello board')).toBe(1);
    expect(received(dirs.two)).toBe('');

    t.keys(['Escape']);
    s = await t.waitForScreen('the list again, marks kept', (x) => isBoard(x) && !x.text.includes('── prompt to') && rows(x).filter((r) => r.marked).length === 2);
    expect(rows(s).map((r) => r.name)).toEqual(['one', 'two', 'three']);
  });
});
