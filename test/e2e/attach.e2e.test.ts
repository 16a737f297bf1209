/**
 * attach, end to end, in a real terminal: every test runs the real CLI in a
 * pane of its own private tmux server (an outer bash with a prompt of its own
 * and AGENT_BOARD_HOME exported), against sessions with real runners and
 * PTYs, and reads what the user would see with capture-pane.
 *
 * The outer shell runs without readline (--noediting) on purpose: readline
 * would reset the terminal's modes itself at each prompt and hide whatever an
 * attach failed to give back.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, destroyHome, makeHome, peekLines, waitFor, waitForPeekLines } from '../helpers/home.js';
import { killAllTmux, showScreen, tmuxAvailable, TmuxServer, type Screen, OUTER_PS1, outerShellCommand } from '../helpers/tmux.js';

const OUTER = OUTER_PS1.trimEnd();
const INNER_PS1 = 'INNER$ ';
const INNER = INNER_PS1.trimEnd();
const COLS = 120;
const ROWS = 35;
/** Session environment: a recognisable prompt and no history file written anywhere. */
const SESSION_ENV = { PS1: INNER_PS1, PROMPT_COMMAND: '', HISTFILE: '/dev/null' };
/** Pane modes an attach could leave changed (tmux 3.3 has no format for bracketed paste; that one is checked by pasting). */
const MODES_FORMAT = [
  'alternate_on',
  'cursor_flag',
  'mouse_any_flag',
  'mouse_sgr_flag',
  'mouse_standard_flag',
  'mouse_button_flag',
  'mouse_all_flag',
  'mouse_utf8_flag',
  'keypad_flag',
  'keypad_cursor_flag',
  'insert_flag',
  'origin_flag',
  'wrap_flag',
  'scroll_region_upper',
  'scroll_region_lower',
]
  .map((f) => `${f}=#{${f}}`)
  .join(' ');

let home: string;
let scratch: string[] = [];

beforeEach(() => {
  home = makeHome('ab-e2e-');
  scratch = [];
});

afterEach(() => {
  // tmux first: its panes' attach clients get SIGHUP before their sessions go.
  killAllTmux();
  destroyHome(home);
  for (const d of scratch) fs.rmSync(d, { recursive: true, force: true });
});

// ---- helpers ---------------------------------------------------------------

/** A tmux server whose pane sits at the outer shell's prompt. */
async function outerTerminal(): Promise<TmuxServer> {
  const t = TmuxServer.start({ command: outerShellCommand(home), cols: COLS, rows: ROWS });
  await t.waitForScreen('the outer prompt', (s) => s.lines[0] === OUTER);
  expect(t.display('#{pane_width}x#{pane_height}')).toBe(`${COLS}x${ROWS}`);
  return t;
}

/** Starts a session in the background (at the CLI's default size, since `new` has no terminal here). */
function newSession(name: string, command: string[], env: Record<string, string> = SESSION_ENV): string {
  const r = cli(home, ['new', '--name', name, '--', ...command], { env });
  if (r.code !== 0) throw new Error(`new failed (${r.code}): ${r.stderr}`);
  return r.stdout.trim();
}

const peek = (name: string) => peekLines(home, name);

async function waitForPeek(name: string, what: string, pred: (lines: string[]) => boolean): Promise<string[]> {
  return waitForPeekLines(home, name, what, pred);
}

/** A bash session at its prompt. */
async function newShell(name: string): Promise<void> {
  newSession(name, ['bash', '--norc', '--noprofile']);
  await waitForPeek(name, 'its prompt', (l) => l[l.length - 1] === INNER);
}

interface SessionJson {
  id: string;
  name: string;
  status: string;
  cols: number;
  rows: number;
  exitCode: number | null;
}

function lsJson(): SessionJson[] {
  const r = cli(home, ['ls', '--json']);
  if (r.code !== 0) throw new Error(`ls --json failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout) as SessionJson[];
}

function session(name: string): SessionJson {
  const s = lsJson().find((x) => x.name === name);
  if (!s) throw new Error(`no session ${name} in ls --json`);
  return s;
}

function lastNonEmpty(s: Screen): string {
  for (let i = s.lines.length - 1; i >= 0; i--) if (s.lines[i] !== '') return s.lines[i]!;
  return '';
}

/** Types the attach command at the outer prompt (after `env`: variables for it) and waits for the session's first frame. */
async function attach(t: TmuxServer, args: string, ready: (s: Screen) => boolean, target?: string, env = ''): Promise<Screen> {
  t.typeLine(`${env}agent-board attach ${args}`, target);
  return t.waitForScreen(`the first frame of "attach ${args}"`, (s) => !s.text.includes('agent-board attach') && ready(s), { target });
}

/** Presses the detach key and waits for the outer prompt under "detached from NAME". */
async function detach(t: TmuxServer, name: string, target?: string): Promise<Screen> {
  t.keys(['C-\\'], target);
  return t.waitForScreen(`"detached from ${name}" and the outer prompt`, (s) => {
    const i = s.lines.indexOf(`detached from ${name}`);
    return i !== -1 && s.lines[i + 1] === OUTER && lastNonEmpty(s) === OUTER;
  }, { target });
}

/** The outer shell answers a command, echoed as typed: the terminal is back in a state a shell can use. */
async function outerShellAnswers(t: TmuxServer, target?: string): Promise<void> {
  const command = 'echo back-$((40+2))';
  t.typeLine(command, target);
  await t.waitForScreen('the outer shell echoing and answering "echo back"', (s) => {
    const i = s.lines.lastIndexOf(OUTER_PS1 + command);
    return i !== -1 && s.lines[i + 1] === 'back-42' && s.lines[i + 2] === OUTER;
  }, { target });
}

let sttyProbe = 0;
/** The outer terminal's line settings (stty -g), read by the outer shell. */
async function outerStty(t: TmuxServer): Promise<string> {
  const tag = `stty-${++sttyProbe}=`;
  t.typeLine(`echo "${tag}$(stty -g)"`);
  const s = await t.waitForScreen(`the output of stty -g (${tag})`, (x) => x.lines.some((l) => l.startsWith(tag)) && lastNonEmpty(x) === OUTER);
  return s.lines.find((l) => l.startsWith(tag))!.slice(tag.length);
}

/** The pid of the attach client running in the pane (the outer shell's child). */
function attachClientPid(t: TmuxServer, target?: string): number {
  const shell = t.display('#{pane_pid}', target);
  const r = spawnSync('pgrep', ['-P', shell], { encoding: 'utf8' });
  const pids = r.stdout.split(/\s+/).filter(Boolean).map(Number);
  expect(pids).toHaveLength(1);
  const pid = pids[0]!;
  expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain('attach');
  return pid;
}

/** Whether a process still runs (a zombie nobody reaped yet counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

// ---- the tests -------------------------------------------------------------

describe.skipIf(!tmuxAvailable())('attach in a real terminal (tmux)', () => {
  it('types into the session, detaches back to the outer shell, and the session keeps running', async () => {
    await newShell('s1');
    const t = await outerTerminal();
    await attach(t, 's1', (s) => s.lines[0] === INNER);

    t.typeLine('echo hi');
    await t.waitForScreen('"hi" from the session', (s) => s.lines.includes('hi') && lastNonEmpty(s) === INNER);

    const after = await detach(t, 's1');
    expect(after.lines.filter((l) => l.includes('detached from'))).toEqual(['detached from s1']);
    await outerShellAnswers(t);

    expect(session('s1').status).toBe('running');
    const ls = cli(home, ['ls']);
    expect(ls.stdout).toMatch(/\bs1\s+shell\s+(busy|idle)\b/); // it just printed: busy, idle 2 s later
    expect(await peek('s1')).toEqual([`${INNER_PS1}echo hi`, 'hi', INNER]);
  });

  it('shows exactly the session in the first frame, at the right rows, with the cursor where the session has it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-e2e-rc-'));
    scratch.push(dir);
    const rc = path.join(dir, 'rc');
    fs.writeFileSync(rc, 'for i in $(seq 1 12); do echo "line $i"; done\nPS1=\'\\[\\e[1;32m\\]ready>\\[\\e[0m\\] \'\n');
    newSession('ff', ['bash', '--rcfile', rc, '--noprofile', '-i']);
    await waitForPeek('ff', 'its prompt', (l) => l[l.length - 1] === 'ready>');

    const t = await outerTerminal();
    // Fill the outer screen first: none of it may show through the first frame.
    t.typeLine('seq 1000 1100');
    await t.waitForScreen('the outer screen full of numbers', (s) => s.lines.includes('1099') && lastNonEmpty(s) === OUTER);

    const expected = [...Array.from({ length: 12 }, (_, i) => `line ${i + 1}`), 'ready>'];
    const first = await attach(t, 'ff', (s) => s.lines.includes('ready>'));
    // Settle: whatever the session redraws after the resize to our size must leave the same picture.
    await new Promise((r) => setTimeout(r, 300));
    const screen = t.capture();
    expect(first.lines, showScreen(first)).toEqual([...expected, ...Array<string>(ROWS - expected.length).fill('')]);
    expect(screen.lines, showScreen(screen)).toEqual(first.lines);

    // The same as the session's own screen (at the pane's size now), as peek reads it.
    expect(session('ff')).toMatchObject({ cols: COLS, rows: ROWS });
    const peeked = await peek('ff');
    expect([...peeked, ...Array<string>(ROWS - peeked.length).fill('')]).toEqual(screen.lines);

    // The cursor sits after the prompt, on the prompt's row.
    expect(t.display('#{cursor_x},#{cursor_y}')).toBe(`${'ready> '.length},${expected.length - 1}`);

    // Colours come through: the prompt is bold green, the numbered lines are plain.
    const ansi = t.captureAnsi();
    expect(ansi[12]).toMatch(/\x1b\[(?:[0-9;]*;)?32(?:;[0-9;]*)?m/);
    expect(ansi[0]).toBe('line 1');

    await detach(t, 'ff');
  });

  it('leaves the session running when the terminal goes away (tmux server killed), and a new attach shows the same screen', async () => {
    await newShell('k1');
    const t = await outerTerminal();
    await attach(t, 'k1', (s) => s.lines[0] === INNER);
    t.typeLine('echo before-the-kill');
    const before = await t.waitForScreen('the echo', (s) => s.lines.includes('before-the-kill') && lastNonEmpty(s) === INNER);
    const client = attachClientPid(t);

    t.kill();

    // The attach client goes with its terminal; the session does not.
    await waitFor('the attach client to exit after its terminal went away', () => !alive(client), 5_000);
    expect(session('k1').status).toBe('running');
    expect(await peek('k1')).toEqual([`${INNER_PS1}echo before-the-kill`, 'before-the-kill', INNER]);

    const t2 = await outerTerminal();
    const again = await attach(t2, 'k1', (s) => s.lines.includes('before-the-kill'));
    expect(again.lines, showScreen(again)).toEqual(before.lines);
    expect(t2.display('#{cursor_x},#{cursor_y}')).toBe(`${INNER_PS1.length},2`);

    // And it still types.
    t2.typeLine('echo after');
    await t2.waitForScreen('"after" from the session', (s) => s.lines.includes('after') && lastNonEmpty(s) === INNER);
    await detach(t2, 'k1');
  });

  it('survives kill -9 of the attach client: the session is intact and a re-attach shows the same screen', async () => {
    await newShell('k9');
    const t = await outerTerminal();
    await attach(t, 'k9', (s) => s.lines[0] === INNER);
    t.typeLine('for i in 1 2 3; do echo "row $i"; done');
    const before = await t.waitForScreen('the rows', (s) => s.lines.includes('row 3') && lastNonEmpty(s) === INNER);
    const client = attachClientPid(t);

    process.kill(client, 'SIGKILL');
    await waitFor('the attach client to die', () => !alive(client), 5_000);

    expect(session('k9').status).toBe('running');
    const peeked = await peek('k9');
    expect([...peeked, ...Array<string>(ROWS - peeked.length).fill('')]).toEqual(before.lines);

    // The killed client could not give its terminal back; re-attach from a fresh window of the same server.
    const pane = t.run(['new-window', '-P', '-F', '#{pane_id}', ...outerShellCommand(home)]).trim();
    await t.waitForScreen('the outer prompt in the new window', (s) => s.lines[0] === OUTER, { target: pane });
    expect(t.display('#{pane_width}x#{pane_height}', pane)).toBe(`${COLS}x${ROWS}`);
    const again = await attach(t, 'k9', (s) => s.lines.includes('row 3'), pane);
    expect(again.lines, showScreen(again)).toEqual(before.lines);

    t.typeLine('echo still-here', pane);
    await t.waitForScreen('"still-here"', (s) => s.lines.includes('still-here') && lastNonEmpty(s) === INNER, { target: pane });
    await detach(t, 'k9', pane);
  });

  it("gives the terminal back as it was: alternate screen, cursor, mouse and bracketed paste", async () => {
    newSession('modes', [
      'bash',
      '-c',
      "printf '\\e[?2004h\\e[?1000h\\e[?1006h\\e[?25l\\e[?1049h'; echo ALT-SCREEN-UP; exec sleep 1000",
    ]);
    await waitForPeek('modes', 'its marker', (l) => l.includes('ALT-SCREEN-UP'));

    const t = await outerTerminal();
    const sttyBefore = await outerStty(t);
    const before = t.display(MODES_FORMAT);
    expect(before).toMatch(/alternate_on=0 cursor_flag=1 mouse_any_flag=0 mouse_sgr_flag=0 /);

    await attach(t, 'modes', (s) => s.lines.includes('ALT-SCREEN-UP'));
    // The program's modes reached the real terminal (otherwise the check below proves nothing).
    expect(t.display('#{alternate_on} #{cursor_flag} #{mouse_any_flag} #{mouse_sgr_flag} #{mouse_standard_flag}')).toBe('1 0 1 1 1');
    // Bracketed paste is on too: a bracketed paste reaches the session (its tty echoes the brackets).
    t.run(['set-buffer', 'PASTE-ONE']);
    t.run(['paste-buffer', '-p']);
    await t.waitForScreen('the bracketed paste echoed by the session', (s) => /\[200~PASTE-ONE\^\[\[201~/.test(s.text));

    await detach(t, 'modes');
    expect(t.display(MODES_FORMAT)).toBe(before);
    expect(await outerStty(t)).toBe(sttyBefore);

    // Bracketed paste is off again: a paste reaches the outer shell's program without brackets.
    t.typeLine('cat -v');
    await t.waitForScreen('cat -v running', (s) => lastNonEmpty(s) === `${OUTER_PS1}cat -v`);
    t.run(['set-buffer', 'PASTE-TWO']);
    t.run(['paste-buffer', '-p']);
    t.keys(['Enter']);
    const pasted = await t.waitForScreen('the paste echoed by cat -v', (s) => s.lines.filter((l) => l.includes('PASTE-TWO')).length >= 2);
    const tail = pasted.lines.slice(pasted.lines.indexOf(`${OUTER_PS1}cat -v`));
    expect(tail.filter((l) => l.includes('PASTE-TWO')), showScreen(pasted)).toEqual(['PASTE-TWO', 'PASTE-TWO']);
    t.keys(['C-d']);
    // Type only once the shell is back at its prompt: keys sent before are echoed ahead of it (a race, not a fault).
    await t.waitForScreen('the outer prompt after cat -v', (s) => lastNonEmpty(s) === OUTER);
    await outerShellAnswers(t);
  });

  it('says so when the session exits while attached, and gives the outer prompt back', async () => {
    await newShell('ex');
    const t = await outerTerminal();
    const sttyBefore = await outerStty(t);
    await attach(t, 'ex', (s) => s.lines[0] === INNER);
    t.typeLine('exit 7');
    const s = await t.waitForScreen('"ex exited with code 7" and the outer prompt', (x) => {
      const i = x.lines.indexOf('ex exited with code 7');
      return i !== -1 && x.lines[i + 1] === OUTER;
    });
    expect(lastNonEmpty(s)).toBe(OUTER);
    expect(t.display('#{alternate_on} #{cursor_flag} #{mouse_any_flag}')).toBe('0 1 0');
    expect(await outerStty(t)).toBe(sttyBefore);
    await outerShellAnswers(t);
    expect(session('ex')).toMatchObject({ status: 'exited', exitCode: 7 });
  });

  it('names the detach key over the first frame for a few seconds, then the exact screen; never in the session itself', async () => {
    await newShell('hk');
    const t = await outerTerminal();
    const NOTE = 'Ctrl-\\ detaches · agent-board';
    let s = await attach(t, 'hk', (x) => x.lines[0] === INNER && x.lines[ROWS - 1]!.endsWith(NOTE), undefined, 'AGENT_BOARD_ATTACH_HINT=1 ');
    // At the right of the row away from the cursor, in reverse video, one column from the edge.
    expect(s.lines[ROWS - 1]).toBe(' '.repeat(COLS - NOTE.length - 3) + ' ' + NOTE);
    expect(t.captureAnsi()[ROWS - 1]).toContain('\x1b[7m');
    expect((await peek('hk')).join('\n')).not.toContain('detaches'); // the session's own screen never has it
    // Nothing typed: it goes by itself, and the screen is the session's, exactly.
    s = await t.waitForScreen('the note gone', (x) => !x.text.includes('detaches'), { timeoutMs: 10_000 });
    expect(s.lines.filter(Boolean)).toEqual(await peek('hk'));
    expect(t.display('#{cursor_x},#{cursor_y}')).toBe(`${INNER_PS1.length},0`);
    await detach(t, 'hk');

    // Again: the first key takes it away at once, and goes to the session.
    await attach(t, 'hk', (x) => x.lines.some((l) => l === INNER) && x.text.includes(NOTE), undefined, 'AGENT_BOARD_ATTACH_HINT=1 ');
    t.typeLine('echo hi-$((6*7))');
    // The runner writes the key, then drops the note (src/runner/session-commands.ts): the echo comes
    // in the frame without it. Left to its own time out instead (HINT_MS after the frame), the note
    // would be drawn again over the echo: no screen may show the two. (How soon is not asked: on a
    // busy machine the key may come after the time out, and then neither way shows both.)
    let both: string | null = null;
    s = await t.waitForScreen('the key typed and the note gone', (x) => {
      if (x.text.includes('echo hi-') && x.text.includes('detaches')) both ??= x.text;
      return x.lines.includes('hi-42') && !x.text.includes('detaches');
    });
    expect(both, 'a screen with the typed line under the note').toBeNull();
    await detach(t, 'hk');
    // AGENT_BOARD_ATTACH_HINT=0: none.
    t.typeLine('agent-board attach hk'); // AGENT_BOARD_ATTACH_HINT=0, as outerShellCommand sets it
    await t.waitForScreen('the first frame without the note', (x) => !x.text.includes('agent-board attach') && x.lines.includes('hi-42'));
    for (let i = 0; i < 5; i++) {
      expect(t.capture().text).not.toContain('detaches');
      await new Promise((r) => setTimeout(r, 100));
    }
    await detach(t, 'hk');
  });

  it('a detach while the note shows leaves none of it on the terminal', async () => {
    await newShell('hd');
    cli(home, ['send', 'hd', 'seq 60']); // the prompt at the bottom: the note goes on the top row
    await waitForPeek('hd', 'the prompt at the bottom', (l) => l.length === 24 && l[23] === INNER);
    const t = await outerTerminal();
    // A frame's clear must not push the screen into the history: only what is left at the end is there.
    t.run(['set-option', '-p', 'scroll-on-clear', 'off']);
    await attach(t, 'hd', (x) => x.lines[0]!.endsWith('detaches · agent-board'), undefined, 'AGENT_BOARD_ATTACH_HINT=1 ');
    await detach(t, 'hd');
    // The screen and what scrolled off it into the terminal's history.
    const all = t.run(['capture-pane', '-p', '-S', '-200']);
    expect(all).not.toContain('detaches');
    expect(all).toMatch(/^60$/m); // the session's screen is there
  });

  it('when the runner is killed under it: the terminal back, then one line of its own that says to revive, exit 7', async () => {
    await newShell('rk');
    const t = await outerTerminal();
    const sttyBefore = await outerStty(t);
    await attach(t, 'rk', (s) => s.lines[0] === INNER);
    const runner = lsJson().find((x) => x.name === 'rk') as SessionJson & { runnerPid: number };
    process.kill(runner.runnerPid, 'SIGKILL');
    // It tries to reconnect for about 4 s first.
    const s = await t.waitForScreen('the message and the outer prompt', (x) => lastNonEmpty(x) === OUTER && x.text.includes('agent-board revive'), { timeoutMs: 20_000 });
    const i = s.lines.findIndex((l) => l.includes('agent-board revive'));
    // Under the session's prompt, not on it, and the outer prompt under the message.
    expect(s.lines[i - 1], showScreen(s)).toBe(INNER);
    expect(s.lines[i]).toBe("agent-board: rk's runner is gone, and the attach with it; bring the session back with: agent-board revive rk");
    expect(s.lines[i + 1]).toBe(OUTER);
    t.typeLine('echo "code=$?"');
    await t.waitForScreen('the exit code', (x) => x.lines.includes('code=7'));
    expect(t.display('#{alternate_on} #{cursor_flag} #{mouse_any_flag}')).toBe('0 1 0');
    expect(await outerStty(t)).toBe(sttyBefore);
    expect(session('rk').status).toBe('lost');
  });

  it('gives the terminal back when the session exits while it has the alternate screen and the mouse on', async () => {
    newSession('fs', [
      'bash',
      '-c',
      "printf '\\e[?1049h\\e[?1000h\\e[?1006h\\e[?25l'; echo FULL-SCREEN; read -r x; exit 3",
    ]);
    await waitForPeek('fs', 'its marker', (l) => l.includes('FULL-SCREEN'));
    const t = await outerTerminal();
    const before = t.display(MODES_FORMAT);

    await attach(t, 'fs', (s) => s.lines.includes('FULL-SCREEN'));
    expect(t.display('#{alternate_on} #{cursor_flag} #{mouse_any_flag}')).toBe('1 0 1');
    t.keys(['Enter']);
    const s = await t.waitForScreen('"fs exited with code 3" and the outer prompt', (x) => {
      const i = x.lines.indexOf('fs exited with code 3');
      return i !== -1 && x.lines[i + 1] === OUTER;
    });
    // Off the alternate screen: what the program drew there is gone with it.
    expect(s.lines, showScreen(s)).not.toContain('FULL-SCREEN');
    expect(t.display(MODES_FORMAT)).toBe(before);
    await outerShellAnswers(t);
  });

  it('follows the terminal when it is resized', async () => {
    await newShell('rs');
    expect(session('rs')).toMatchObject({ cols: 80, rows: 24 });
    const t = await outerTerminal();
    await attach(t, 'rs', (s) => s.lines[0] === INNER);
    await waitFor('the session to take the pane size', () => {
      const s = session('rs');
      return s.cols === COLS && s.rows === ROWS;
    });

    t.run(['resize-window', '-x', '100', '-y', '30']);
    expect(t.display('#{pane_width}x#{pane_height}')).toBe('100x30');
    await waitFor('ls --json to show the new size', () => {
      const s = session('rs');
      return s.cols === 100 && s.rows === 30;
    });
    t.typeLine('stty size');
    await t.waitForScreen('stty size in the session', (s) => s.lines.includes('30 100') && lastNonEmpty(s) === INNER);
    await detach(t, 'rs');
  });

  it('read-only: typing does nothing to the session, and detach works', async () => {
    await newShell('ro');
    const peekBefore = await peek('ro');
    const t = await outerTerminal();
    await attach(t, '--read-only ro', (s) => s.lines[0] === INNER);

    t.typeLine('echo typed-while-read-only');
    t.keys(['C-c']);
    // Nothing may arrive: give it time to (wrongly) get there.
    await new Promise((r) => setTimeout(r, 500));
    const screen = t.capture();
    expect(screen.text, showScreen(screen)).not.toContain('typed-while-read-only');
    expect(await peek('ro')).toEqual(peekBefore);

    await detach(t, 'ro');
    await outerShellAnswers(t);
    expect(await peek('ro')).toEqual(peekBefore);
    // A read-only client does not resize the session either.
    expect(session('ro')).toMatchObject({ status: 'running', cols: 80, rows: 24 });
  });

  it('refuses bad input with one line on stderr and the documented exit code', async () => {
    await newShell('ok');
    const t = await outerTerminal();
    const err1 = path.join(home, 'err-nosuch');
    const err2 = path.join(home, 'err-key');

    t.typeLine(`agent-board attach nosuch 2>${err1}; echo "rc=$?"`);
    let s = await t.waitForScreen('the exit code of attach nosuch', (x) => x.lines.some((l) => l.startsWith('rc=')) && lastNonEmpty(x) === OUTER);
    // Nothing on the terminal but the exit code: no clearing, no mode changes.
    expect(s.lines.slice(0, 3), showScreen(s)).toEqual([`${OUTER_PS1}agent-board attach nosuch 2>${err1}; echo "rc=$?"`, 'rc=3', OUTER]);
    const msg1 = fs.readFileSync(err1, 'utf8');
    expect(msg1.split('\n').filter(Boolean)).toHaveLength(1);
    expect(msg1).toMatch(/nosuch/);

    t.typeLine(`agent-board attach ok --detach-key banana 2>${err2}; echo "rc=$?"`);
    s = await t.waitForScreen('the exit code of --detach-key banana', (x) => x.lines.filter((l) => l.startsWith('rc=')).length === 2 && lastNonEmpty(x) === OUTER);
    expect(s.lines.slice(2, 4), showScreen(s)).toEqual([`${OUTER_PS1}agent-board attach ok --detach-key banana 2>${err2}; echo "rc=$?"`, 'rc=2']);
    const msg2 = fs.readFileSync(err2, 'utf8');
    expect(msg2.split('\n').filter(Boolean)).toHaveLength(1);
    expect(msg2).toMatch(/banana/);
    expect(msg2).toMatch(/detach key/);

    expect(t.display(MODES_FORMAT)).toMatch(/alternate_on=0 cursor_flag=1 mouse_any_flag=0 /);
    await outerShellAnswers(t);
    expect(session('ok').status).toBe('running');
  });
});

