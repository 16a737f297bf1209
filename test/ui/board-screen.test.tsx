import { afterEach, describe, expect, it, vi } from 'vitest';
import './no-ci.js'; // before anything loads Ink

// Colours on, as on a user's terminal (chalk reads this when it loads).
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

import { FakeFeed, session, type FakeActions } from './fakes.js';
import { colorOf, eventually, KEY } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

const GREEN = 2;
const YELLOW = 3;
const RED = 1;
const BRIGHT_MAGENTA = 13;

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

function fourSessions() {
  return [
    session({ name: 'api', agent: 'claude', previewLine: '> all 41 tests passed', lastOutputAt: new Date(Date.now() - 180_000).toISOString() }),
    session({ name: 'web', agent: 'codex', status: 'starting', lastOutputAt: null, createdAt: new Date(Date.now() - 7_200_000).toISOString() }),
    session({ name: 'build', status: 'exited', exitCode: 2, previewLine: 'make: *** [all] Error 2' }),
    session({ name: 'done', status: 'exited', exitCode: 0 }),
    session({ name: 'ghost', status: 'lost', runnerAlive: false }),
  ];
}

describe('the board at 80x24', () => {
  it('header counts by state, one row per session with glyph, name, agent, state, age and preview line', async () => {
    m = mountBoard(new FakeFeed(fourSessions()), { cols: 80, rows: 24 });
    const out = m.out;
    // All five kinds at 80 columns: one space between the counts.
    await eventually(out, () => expect(out.lines()[0]).toBe('agent-board 5 sessions ● 1 idle ◌ 1 starting ✓ 1 exited ✗ 1 failed ? 1 lost'));
    // The lost session's offer takes the line under the header (LostBanner.tsx).
    expect(out.lines()[1]).toBe('⚠ 1 session lost (the machine restarted?): R revives it');
    const rows = out.lines().slice(2, 7);
    expect(rows[0]).toMatch(/^› ● api +claude +idle +3m {2}> all 41 tests passed$/);
    expect(rows[1]).toMatch(/^ {2}◌ web +codex +starting +2h$/); // never printed: age since start
    expect(rows[2]).toMatch(/^ {2}✗ build +shell +exited 2 +5m {2}make: \*\*\* \[all\] Error 2$/);
    expect(rows[3]).toMatch(/^ {2}✓ done +shell +exited 0 +5m$/);
    expect(rows[4]).toMatch(/^ {2}\? ghost +shell +lost +5m$/);
    for (const row of out.lines()) expect(row.length).toBeLessThanOrEqual(80);
    expect(out.lines()[22]).toBe('Enter attach  n new  x kill  d remove  r rename  / filter  ? help  q quit');
  });

  it('draws the sessions the feed already has in its very first frame, never an empty board before them', async () => {
    m = mountBoard(new FakeFeed(fourSessions()), { cols: 80, rows: 24 });
    const out = m.out;
    await eventually(out, () => expect(out.lines()[0]).toContain('5 sessions'));
    expect(out.written).not.toContain('No sessions yet.');
  });

  it("cuts a row's last line after a whole word, with an ellipsis, never inside one", async () => {
    const spinner = '⠙ Reading the chat… (0s · esc to interrupt)';
    m = mountBoard(new FakeFeed([session({ name: 'bob', agent: 'demo', activity: 'busy', previewLine: spinner })]), { cols: 60, rows: 24 });
    const row = () => m!.out.lines().find((l) => l.includes('bob')) ?? '';
    // 22 cells for it: `⠙ Reading the chat… (0` cut inside a word before.
    await eventually(m.out, () => expect(row()).toMatch(/busy +5m {2}⠙ Reading the chat…$/));
  });

  it('draws each status glyph in its colour', async () => {
    m = mountBoard(new FakeFeed(fourSessions()), { cols: 80, rows: 24 });
    await eventually(m.out, () => expect(m!.out.text()).toContain('ghost'));
    expect(colorOf(m.out, '● api')).toBe(GREEN);
    expect(colorOf(m.out, '◌ web')).toBe(YELLOW);
    expect(colorOf(m.out, '✗ build')).toBe(RED);
    expect(colorOf(m.out, '? ghost')).toBe(RED);
    expect([null, 7, 8]).toContain(colorOf(m.out, '✓ done')); // grey
  });

  it('a kill the user asked for is no failure: `killed`, a grey square, counted apart; a signal nobody asked for stays a red failure', async () => {
    m = mountBoard(
      new FakeFeed([
        session({ name: 'nb1', status: 'exited', exitSignal: 'SIGHUP', killed: 'SIGTERM' }),
        session({ name: 'crash', status: 'exited', exitSignal: 'SIGSEGV' }),
        session({ name: 'ok', status: 'exited', exitCode: 0 }),
      ]),
      { cols: 80, rows: 24 },
    );
    const out = m.out;
    await eventually(out, () => expect(out.lines()[0]).toBe('agent-board 3 sessions  ✓ 1 exited  ■ 1 killed  ✗ 1 failed'));
    const rows = out.lines().slice(1, 4);
    expect(rows[0]).toMatch(/^› ■ nb1 +shell +killed +5m$/);
    expect(rows[1]).toMatch(/^ {2}✗ crash +shell +SIGSEGV +5m$/);
    expect(colorOf(out, '✗ crash')).toBe(RED);
    expect([null, 7, 8]).toContain(colorOf(out, '■ nb1')); // grey, as an exit that went well
    expect([null, 7, 8]).toContain(colorOf(out, '■ 1 killed'));
  });

  it('a busy session is a yellow half circle, a waiting one stands out in bold bright magenta; the header counts them first', async () => {
    const feed = new FakeFeed([
      session({ name: 'api', agent: 'claude', activity: 'waiting' }),
      session({ name: 'web', agent: 'codex', activity: 'busy' }),
      session({ name: 'sh' }),
    ]);
    m = mountBoard(feed, { cols: 80, rows: 24 });
    const out = m.out;
    await eventually(out, () => expect(out.lines()[0]).toBe('agent-board 3 sessions  ◆ 1 waiting  ◐ 1 busy  ● 1 idle'));
    expect(out.lines()[1]).toMatch(/^› ◆ api +claude +waiting +5m$/);
    expect(out.lines()[2]).toMatch(/^ {2}◐ web +codex +busy +5m$/);
    expect(colorOf(out, '◆ api')).toBe(BRIGHT_MAGENTA);
    const row = out.term.buffer.active.getLine(1)!;
    const word = row.getCell(out.lines()[1]!.indexOf('waiting'))!;
    expect(word.getFgColor()).toBe(BRIGHT_MAGENTA);
    expect(word.isBold()).toBeTruthy();
    expect(row.getCell(2)!.isBold()).toBeTruthy(); // the glyph
    expect(colorOf(out, '◐ web')).toBe(YELLOW);
    expect(colorOf(out, '● sh')).toBe(GREEN);
    // The preview's title says the state too, in its colour.
    expect(out.lines()[4]).toMatch(/^── api \(waiting\) claude ─+$/); // the agent too, unless a plain shell
    expect(colorOf(out, '(waiting)')).toBe(BRIGHT_MAGENTA);
    // The state follows the runner's pushes.
    feed.setSessions([session({ ...feed.sessions[0]!, activity: 'busy' }), ...feed.sessions.slice(1)]);
    await eventually(out, () => expect(out.lines()[0]).toBe('agent-board 3 sessions  ◐ 2 busy  ● 1 idle'));
    expect(out.lines()[1]).toMatch(/^› ◐ api +claude +busy +5m$/);
  });

  it('an empty board says how to start a session', async () => {
    m = mountBoard(new FakeFeed([]), { cols: 80, rows: 24 });
    await eventually(m.out, () => expect(m!.out.text()).toContain('No sessions yet.'));
    const text = m.out.text();
    expect(text).toContain('agent-board 0 sessions');
    expect(text).toMatch(/Press n to start one here/);
    expect(text).toContain('agent-board new --name api -- claude');
  });

  it('? shows every key from the binding table, and Esc closes it', async () => {
    m = mountBoard(new FakeFeed(fourSessions()), { cols: 80, rows: 24 });
    await eventually(m.out, () => expect(m!.out.text()).toContain('api'));
    m.stdin.press('?');
    await eventually(m.out, () => expect(m!.out.text()).toContain('Forms and the filter'));
    const text = m.out.text();
    // Every row of it fits: the Board title on the first row under the header.
    expect(m.out.lines()[1]).toMatch(/^ Board +Forms and the filter$/);
    for (const line of ['↑ k', 'Enter →', 'new session', 'kill the session (asks first)', 'remove an exited session', 'quit (sessions keep running)', 'Tab ↓',
      '1-9       answer a waiting dialog', 'i         type in (Ctrl-\\ back)', 'Space     mark / unmark (*)', 'p         prompt it or the marked', 'e         why it has its state']) {
      expect(text).toContain(line);
    }
    expect(text).toContain('While attached, Ctrl-\\ comes back here; the session keeps running.');
    expect(text).toContain('Esc, ? or q closes this help.');
    expect(m.out.lines().every((l) => l.length <= 80)).toBe(true);
    // No key's line is cut at 80 columns.
    expect(text).not.toContain('…');
    expect(text).toContain('D         review its worktree diff');
    m.stdin.press(KEY.esc);
    await eventually(m.out, () => expect(m!.out.text()).not.toContain('Forms and the filter'));
    expect(m.out.text()).toContain('› ● api');
  });

  it('q leaves with a quit request, touching no session', async () => {
    m = mountBoard(new FakeFeed(fourSessions()), { cols: 80, rows: 24 });
    await eventually(m.out, () => expect(m!.out.text()).toContain('api'));
    m.stdin.press('q');
    await eventually(m.out, () => expect(m!.left).toHaveLength(1));
    expect(m.left[0]!.req).toEqual({ kind: 'quit' });
    expect((m.actions as FakeActions).calls).toEqual([]);
  });
});

describe('the board at 200x50', () => {
  it('puts the preview beside the list and uses the width', async () => {
    const feed = new FakeFeed(fourSessions());
    m = mountBoard(feed, { cols: 200, rows: 50 });
    const first = feed.sessions[0]!;
    feed.setScreen({ id: first.id, cols: 120, rows: 3, lines: ['$ npm test', '', '> all 41 tests passed'], cursorX: 0, cursorY: 2, final: false });
    await eventually(m.out, () => expect(m!.out.text()).toContain('$ npm test'));
    const lines = m.out.lines();
    expect(lines[0]).toBe('agent-board 5 sessions  ● 1 idle  ◌ 1 starting  ✓ 1 exited  ✗ 1 failed  ? 1 lost');
    expect(lines[1]).toMatch(/^⚠ 1 session lost/);
    // List on the left, preview title and screen on the right of the same rows.
    expect(lines[2]).toMatch(/^› ● api .*│ ── api \(idle\) claude 120x3 ─+$/);
    expect(lines[3]).toMatch(/^ {2}◌ web .*│ \$ npm test$/);
    expect(lines[5]).toMatch(/^ {2}✓ done .*│ > all 41 tests passed$/);
    expect(lines[48]).toMatch(/^↑↓ select/);
  });
});

describe('a small terminal', () => {
  it('still draws inside 40x12, and follows a resize to 100x30', async () => {
    const feed = new FakeFeed(fourSessions());
    m = mountBoard(feed, { cols: 40, rows: 12 });
    await eventually(m.out, () => expect(m!.out.text()).toContain('› ● api'));
    expect(m.out.lines().every((l) => l.length <= 40)).toBe(true);
    m.out.resize(100, 30);
    await eventually(m.out, () => expect(m!.out.lines()[28]).toMatch(/^↑↓ select {2}Enter attach/));
    expect(m.out.lines()[2]).toMatch(/^› ● api +claude +idle +3m {2}> all 41 tests passed$/);
  });
});
