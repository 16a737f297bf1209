/**
 * The README's main command on a fresh machine, in a real terminal: bare
 * `agent-board` in an empty home with a PATH where no agent CLI (claude,
 * codex, gemini, pi) can be found starts the demo, then opens the board with
 * its three sessions; the agents talk; q quits and they keep running.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, destroyHome, makeHome, ROOT, waitFor } from '../helpers/home.js';
import { killAllTmux, OUTER_PS1, outerShellCommand, showScreen, tmuxAvailable, TmuxServer, type Screen } from '../helpers/tmux.js';

const OUTER = OUTER_PS1.trimEnd();
/** Shortened wake timings and turns, for the runners the board's demo starts (they inherit its environment). */
const FAST = 'AGENT_BOARD_WAKE_IDLE_MS=800 AGENT_BOARD_WAKE_SUPPRESS_MS=1200 AGENT_BOARD_WAKE_COALESCE_MS=200 AGENT_BOARD_DEMO_WORK_MS=300';

let home: string;
let bin: string;

beforeEach(() => {
  home = makeHome('ab-e2e-demo-');
  // A PATH with node and nothing else: no agent CLI on it, whatever this machine has installed.
  bin = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-e2e-demo-bin-'));
  fs.symlinkSync(process.execPath, path.join(bin, 'node'));
});

afterEach(() => {
  killAllTmux();
  destroyHome(home);
  fs.rmSync(bin, { recursive: true, force: true });
});

/** A row of the board's list: "› ● name agent status ...", "  ● name ..." or "! ● name ..." (marked: it rang). */
const listed = (s: Screen, name: string) => s.lines.some((l) => new RegExp(`^[›! ] \\S ${name}\\s`).test(l));

describe.skipIf(!tmuxAvailable())('the demo on a fresh machine (tmux)', () => {
  it('bare agent-board with no sessions and no agent CLI starts the demo and shows it on the board', { timeout: 90_000 }, async () => {
    const t = TmuxServer.start({ command: ['env', '-u', 'AGENT_BOARD_SESSION', ...outerShellCommand(home).slice(1)], cols: 120, rows: 35 });
    await t.waitForScreen('the outer prompt', (s) => s.lines[0] === OUTER);
    // The helper's shell turns the automatic demo off for the other tests; this one wants it.
    t.typeLine(`AGENT_BOARD_NO_DEMO= ${FAST} PATH=${bin} ${path.join(ROOT, 'bin', 'agent-board')}`);

    const s = await t.waitForScreen(
      'the board with alice, bob and shell',
      (x) => /^agent-board 3 sessions\b/.test(x.lines[0] ?? '') && ['alice', 'bob', 'shell'].every((n) => listed(x, n)),
      { timeoutMs: 30_000 },
    );
    expect(s.lines.filter((l) => /^[›! ] \S (alice|bob)\s+demo\b/.test(l))).toHaveLength(2);

    // The rally runs behind the board: alice answers the human, bob answers alice.
    const chat = () => cli(home, ['chat', 'read', '--room', 'demo']).stdout;
    await waitFor('alice and bob talking', () => /alice: @bob \(demo\)/.test(chat()) && /bob: @alice \(demo\)/.test(chat()), 45_000, 250);
    // The selected row's preview is alice's screen: the commands she ran, and her prompt box.
    await t.waitForScreen('alice in the preview', (x) => x.text.includes('⏺ agent-board chat post --room demo "@bob (demo)') && x.text.includes('╭─'));

    // q: the board goes, the line that said why the demo started is there, the sessions run on.
    t.keys(['q']);
    const out = await t.waitForScreen('the outer prompt after the board', (x) => x.text.trimEnd().endsWith(OUTER) && x.text.includes('no sessions yet'));
    expect(out.text).toContain('no sessions yet and no agent CLI (claude, codex, gemini, pi) on PATH: starting the demo');
    expect(out.text).toContain('q quits the board and the sessions keep running');
    const ls = JSON.parse(cli(home, ['ls', '--json']).stdout) as Array<{ name: string; status: string; room: string }>;
    expect(ls.map((x) => [x.name, x.status, x.room])).toEqual([
      ['alice', 'running', 'demo'],
      ['bob', 'running', 'demo'],
      ['shell', 'running', 'demo'],
    ]);
  });

  it("the demo's first hour at 80x24: the walkthrough stays, rows agree with their lines, /bob finds bob, h hides it for good, demo --stop ends it", { timeout: 120_000 }, async () => {
    const t = TmuxServer.start({ command: ['env', '-u', 'AGENT_BOARD_SESSION', ...outerShellCommand(home).slice(1)], cols: 80, rows: 24 });
    await t.waitForScreen('the outer prompt', (s) => s.lines[0] === OUTER);
    const board = `AGENT_BOARD_NO_DEMO= ${FAST} PATH=${bin} ${path.join(ROOT, 'bin', 'agent-board')}`;
    t.typeLine(board);
    const walkthrough = [
      "demo: alice and bob (scripted, no AI) answer each other in room demo's chat",
      'until the loop guard pauses it',
      'Enter attaches · Ctrl-\\ comes back · q quits (sessions keep running) · h hides',
    ];
    await t.waitForScreen('the board with the walkthrough', (x) => /^agent-board 3 sessions\b/.test(x.lines[0] ?? '') && walkthrough.every((l, i) => x.lines[i + 1] === l), { timeoutMs: 30_000 });

    // While the agents talk: the walkthrough stays; a row with a spinner line says busy; a long line ends on a whole word.
    const row = /^[›! ] \S (alice|bob) +demo +(\S+) +\d+[smhd] {2}(.*)$/;
    let spinners = 0;
    const deadline = Date.now() + 8_000;
    while (Date.now() < deadline) {
      const x = t.capture();
      expect(x.lines.slice(1, 4), showScreen(x)).toEqual(walkthrough);
      for (const l of x.lines) {
        const m = row.exec(l);
        if (!m || !/^[\u2800-\u28ff] /.test(m[3]!)) continue;
        spinners++;
        expect(m[2], l).toBe('busy');
        expect(m[3], l).toMatch(/(…|\))$/); // `(3s · esc to…`, never `esc to int`
      }
      await new Promise((r) => setTimeout(r, 40));
    }
    expect(spinners).toBeGreaterThan(5);

    // /bob: bob alone, not alice (whose demo agent runs with --peer bob).
    t.type('/bob');
    await t.waitForScreen('the filter on bob', (x) => listed(x, 'bob') && !listed(x, 'alice') && !listed(x, 'shell'));
    t.keys(['Escape']);
    await t.waitForScreen('every row again', (x) => ['alice', 'bob', 'shell'].every((n) => listed(x, n)));

    // h hides it; the home remembers: a new board does not show it.
    t.type('h');
    await t.waitForScreen('the walkthrough hidden', (x) => !x.text.includes('h hides') && x.text.includes('the demo line is hidden for good'));
    t.keys(['q']);
    await t.waitForScreen('the outer prompt after the board', (x) => x.text.trimEnd().endsWith(OUTER));
    t.typeLine(board);
    await t.waitForScreen('the board again', (x) => /^agent-board 3 sessions\b/.test(x.lines[0] ?? '') && listed(x, 'alice'));
    await new Promise((r) => setTimeout(r, 500));
    expect(t.capture().text).not.toContain('h hides');
    t.keys(['q']);
    await t.waitForScreen('the outer prompt after the board', (x) => x.text.trimEnd().endsWith(OUTER));

    // demo --stop: one line; no session, no room; the bare board does not start the demo again.
    const stop = cli(home, ['demo', '--stop']);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stdout).toBe('demo stopped: removed alice, bob, shell; removed room demo and its chat; agent-board demo starts it again\n');
    expect(JSON.parse(cli(home, ['ls', '--json']).stdout)).toEqual([]);
    expect(fs.existsSync(path.join(home, 'rooms', 'demo'))).toBe(false);
    t.typeLine(board);
    const empty = await t.waitForScreen('an empty board', (x) => /^agent-board 0 sessions\b|no sessions/.test(x.text) && !x.text.includes('starting the demo'));
    expect(empty.text).not.toContain('starting the demo');
    t.keys(['q']);
  });
});
