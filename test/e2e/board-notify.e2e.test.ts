/**
 * Notifications end to end, in a real terminal: the board (`agent-board
 * --notify-cmd ...`, then `agent-board board --notify-cmd ...`) in a private
 * tmux server, and a real shell session whose state comes from its bytes
 * (busy while it prints, idle 2 s after it stops). The session settles at its
 * prompt, then `agent-board send` gives it a command that prints for a
 * second: when it goes quiet the board rings (BEL, which tmux turns into its
 * bell flag on the board's window while the user is in another window), marks
 * the row `!` with `! 1 unseen` in the header until the user moves onto it,
 * and runs the notify command with the session in its environment.
 *
 *    0 | agent-board 2 sessions  ! 1 unseen  ● 2 idle
 *    1 | › ● first    shell   idle       12s  FIRST-UP
 *    2 | ! ● worker   shell   idle        2s  INNER$
 *    3 | ── first (idle) 80x24 ─────────────────────
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, destroyHome, makeHome, waitFor } from '../helpers/home.js';
import { startTurns } from '../helpers/turns.js';
import { killAllTmux, OUTER_PS1, outerShellCommand, tmuxAvailable, TmuxServer, type Screen } from '../helpers/tmux.js';

const OUTER = OUTER_PS1.trimEnd();
const INNER_PS1 = 'INNER$ ';
const SESSION_ENV = { PS1: INNER_PS1, PROMPT_COMMAND: '', HISTFILE: '/dev/null' };
const COLS = 120;
const ROWS = 35;

let home: string;
let dir: string;

beforeEach(() => {
  home = makeHome('ab-e2e-notify-');
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ab-e2e-notify-out-')));
});

afterEach(() => {
  killAllTmux();
  destroyHome(home);
  fs.rmSync(dir, { recursive: true, force: true });
});

interface SessionJson {
  id: string;
  name: string;
  status: string;
  state: string;
  activity?: string;
  activitySource?: string;
}

function lsJson(): SessionJson[] {
  const r = cli(home, ['ls', '--json']);
  if (r.code !== 0) throw new Error(`ls --json failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout) as SessionJson[];
}

function run(args: string[], env: Record<string, string> = {}): string {
  const r = cli(home, args, { env });
  if (r.code !== 0) throw new Error(`agent-board ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

const state = (name: string) => lsJson().find((s) => s.name === name)?.state;

/** The list rows: marker (› selected, ! marked, or a space), glyph, name, agent, state. */
function rows(s: Screen): { mark: string; glyph: string; name: string; state: string }[] {
  const out = [];
  for (const line of s.lines.slice(1)) {
    const m = /^([›! ]) (\S) (\S+)\s+(\S+)\s+(\S+)\s/.exec(line);
    if (!m) break;
    out.push({ mark: m[1]!, glyph: m[2]!, name: m[3]!, state: m[5]! });
  }
  return out;
}
const row = (s: Screen, name: string) => rows(s).find((r) => r.name === name);
const isBoard = (s: Screen) => /^agent-board \d+ sessions?\b/.test(s.lines[0] ?? '') && /q quit$/.test(s.lines[s.lines.length - 2] ?? '');

/** What the notify command wrote, one line per run: id, name, state, previous state. */
function notified(): string[] {
  try {
    return fs.readFileSync(path.join(dir, 'notified'), 'utf8').trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

/** The title and body the notify command got as $1 and $2, one line per run. */
function texts(): string[] {
  try {
    return fs.readFileSync(path.join(dir, 'texts'), 'utf8').trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

describe.skipIf(!tmuxAvailable())('notifications in a real terminal (tmux)', () => {
  it('a shell that prints and goes quiet rings, is marked until the user moves onto it, and --notify-cmd runs with its state', { timeout: 60_000 }, async () => {
    run(['new', '--name', 'first', '--', 'sh', '-c', 'echo FIRST-UP; exec sleep 600'], SESSION_ENV);
    const worker = run(['new', '--name', 'worker', '--', 'bash', '--norc', '--noprofile'], SESSION_ENV).trim();
    // Both print at start (busy, from their bytes), then settle: idle, which rings for nobody.
    await waitFor('both idle', () => lsJson().every((s) => s.state === 'idle'), 10_000, 100);
    expect(lsJson().find((s) => s.name === 'worker')).toMatchObject({ status: 'running', state: 'idle', activity: 'idle', activitySource: 'bytes' });
    expect(run(['ls'])).toMatch(/\bworker\s+shell\s+idle\s/);

    const script = path.join(dir, 'notify.sh');
    fs.writeFileSync(script, 'printf "%s %s %s %s\\n" "$AGENT_BOARD_SESSION" "$AGENT_BOARD_SESSION_NAME" "$AGENT_BOARD_STATE" "$AGENT_BOARD_PREVIOUS_STATE" >> "$(dirname "$0")/notified"\nprintf "%s|%s\\n" "$1" "$2" >> "$(dirname "$0")/texts"\n');

    const t = TmuxServer.start({ command: ['env', '-u', 'AGENT_BOARD_SESSION', ...outerShellCommand(home).slice(1)], cols: COLS, rows: ROWS });
    await t.waitForScreen('the outer prompt', (s) => s.lines[0] === OUTER);
    const boardWindow = t.display('#{window_id}');
    t.typeLine(`agent-board --notify-cmd 'sh ${script} "$@"'`);
    let s = await t.waitForScreen('the board, both idle', (x) => isBoard(x) && row(x, 'first')?.state === 'idle' && row(x, 'worker')?.state === 'idle');
    expect(s.lines[0]).toMatch(/^agent-board 2 sessions\s+● 2 idle$/);
    expect(row(s, 'first')!.mark).toBe('›');
    expect(row(s, 'worker')!.mark).toBe(' ');

    // The user goes to another window; the board's window is where the bell will show.
    t.run(['new-window', ...outerShellCommand(home)]);
    expect(t.display('#{window_id}')).not.toBe(boardWindow);
    expect(t.display('#{window_bell_flag}', boardWindow)).toBe('0');

    // Work for the shell: it prints for about a second, then goes quiet.
    run(['send', 'worker', 'for i in 1 2 3 4; do echo tick-$i; sleep 0.25; done']);
    s = await t.waitForScreen('worker busy', (x) => isBoard(x) && row(x, 'worker')?.state === 'busy', { target: boardWindow });
    expect(row(s, 'worker')!.glyph).toBe('◐');
    expect(notified()).toEqual([]);

    // (The header counts a frame after the rows change.)
    s = await t.waitForScreen(
      'worker idle and marked, and the header counting it',
      (x) => isBoard(x) && row(x, 'worker')?.mark === '!' && row(x, 'worker')?.state === 'idle' && /^agent-board 2 sessions\s+! 1 unseen\s+● 2 idle$/.test(x.lines[0]!),
      { target: boardWindow, timeoutMs: 15_000 },
    );
    expect(row(s, 'first')!.mark).toBe('›'); // nothing else moved
    await waitFor('the notify command', () => notified().length === 1, 5_000, 50);
    expect(notified()).toEqual([`${worker} worker idle busy`]);
    // Its title and body as $1 and $2: who, and its last line.
    await waitFor('the notify command\'s arguments', () => texts().length === 1, 5_000, 50);
    expect(texts()).toEqual(['worker is done|INNER$']);
    // The BEL reached the terminal: tmux flags the window it rang in.
    await waitFor('the bell flag on the board window', () => t.display('#{window_bell_flag}', boardWindow) === '1', 5_000, 50);

    // Back to the board; moving onto the row is looking at it: the mark goes.
    t.run(['select-window', '-t', boardWindow]);
    t.keys(['j'], boardWindow);
    s = await t.waitForScreen('worker selected, the mark gone', (x) => isBoard(x) && row(x, 'worker')?.mark === '›' && /^agent-board 2 sessions\s+● 2 idle$/.test(x.lines[0]!), { target: boardWindow });
    // Its preview, titled with its state, shows what it printed.
    s = await t.waitForScreen("worker's screen in the preview", (x) => x.lines.some((l) => /^── worker \(idle\) \d+x\d+ ─+$/.test(l)) && x.text.includes('tick-4'), { target: boardWindow });
    expect(notified()).toHaveLength(1);

    // q, then the board subcommand with the option: the next turn that ends rings again (worker not selected now).
    t.keys(['q'], boardWindow);
    await t.waitForScreen('the outer prompt after q', (x) => x.text.trimEnd().endsWith(OUTER), { target: boardWindow });
    t.typeLine(`agent-board board --notify-cmd 'sh ${script}'`, boardWindow);
    await t.waitForScreen('the board again', (x) => isBoard(x) && row(x, 'first')?.mark === '›', { target: boardWindow });
    run(['send', 'worker', 'echo again; sleep 0.3; echo done']);
    await waitFor('worker busy again', () => state('worker') === 'busy', 5_000, 50);
    s = await t.waitForScreen('worker marked again', (x) => isBoard(x) && row(x, 'worker')?.mark === '!', { target: boardWindow, timeoutMs: 15_000 });
    await waitFor('the notify command again', () => notified().length === 2, 5_000, 50);
    expect(notified()[1]).toBe(`${worker} worker idle busy`);
    // The session that printed nothing never rang.
    expect(notified().every((l) => !l.includes(' first '))).toBe(true);
    t.keys(['q'], boardWindow);
    await t.waitForScreen('the outer prompt after q', (x) => x.text.trimEnd().endsWith(OUTER), { target: boardWindow });
  });

  it("a session that asks: the ring waits for its question, and --notify-cmd gets it as $2", { timeout: 60_000 }, async () => {
    const { control } = startTurns(home, 'asker');
    await waitFor('asker at its prompt', () => state('asker') === 'idle', 10_000, 100);
    const script = path.join(dir, 'notify.sh');
    fs.writeFileSync(script, 'printf "%s|%s\\n" "$1" "$2" >> "$(dirname "$0")/texts"\n');

    const t = TmuxServer.start({ command: ['env', '-u', 'AGENT_BOARD_SESSION', ...outerShellCommand(home).slice(1)], cols: COLS, rows: ROWS });
    await t.waitForScreen('the outer prompt', (s) => s.lines[0] === OUTER);
    t.typeLine(`agent-board --notify-cmd 'sh ${script} "$@"'`);
    await t.waitForScreen('the board, asker idle', (x) => isBoard(x) && row(x, 'asker')?.state === 'idle');

    fs.appendFileSync(control, 'ask\n');
    await t.waitForScreen('asker waiting and marked', (x) => isBoard(x) && row(x, 'asker')?.state === 'waiting' && row(x, 'asker')?.mark !== ' ', { timeoutMs: 15_000 });
    await waitFor('the notify command', () => texts().length === 1, 5_000, 50);
    // Read off its screen by the board (a mirror while it waits), not its last line (the dialog's footer).
    expect(texts()).toEqual(['asker needs you|Do you want to proceed? 1. Yes 2. No']);
    t.keys(['q']);
    await t.waitForScreen('the outer prompt after q', (x) => x.text.trimEnd().endsWith(OUTER));
  });
});
