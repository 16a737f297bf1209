/**
 * Answering a waiting session's dialog with a digit, and typing into a
 * session from the board (i ... Ctrl-\). Keys go through the board's real
 * client code (src/client/board-actions/session-io.ts, session-input.ts) to a fake runner per
 * session (test/ui/fakes.ts), which records what it was sent.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import './no-ci.js'; // before anything loads Ink

// Colours and attributes on, as on a user's terminal (chalk reads this when it loads): the cursor is an inverse cell.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});
import { FakeFeed, screen, session } from './fakes.js';
import { eventually, KEY } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

const CTRL_BACKSLASH = '\x1c';
const footer = () => m!.out.lines()[22]!;

/** Claude's API-key dialog as it is on screen (claude-120x35.jsonl at 3 s). */
const API_KEY_DIALOG = [
  '────────────────────────────────────────',
  '  Detected a custom API key in your environment',
  '',
  '  Do you want to use this API key?',
  '',
  '    1. Yes',
  '  ❯ 2. No (recommended)',
  '',
  '  Enter to confirm · Esc to cancel',
];

describe('answering a dialog', () => {
  it('a waiting session shows its question and options on top of its preview; a digit goes to it as a key', async () => {
    const api = session({ name: 'api', agent: 'claude', activity: 'waiting', activitySource: 'screen' });
    const sh = session({ name: 'sh' });
    const feed = new FakeFeed([api, sh]);
    m = mountBoard(feed, { cols: 80, rows: 24 });
    feed.setScreen(screen(api.id, API_KEY_DIALOG));
    await eventually(m.out, () => expect(m!.out.text()).toContain('▌ Do you want to use this API key? 1-9 answers'));
    const lines = m.out.lines();
    const card = lines.findIndex((l) => l.startsWith('▌ Do you want'));
    expect(lines[card - 1]).toMatch(/^── api \(waiting\) claude 80x9 ─+$/);
    expect(lines[card + 1]).toBe('▌ 1 Yes');
    expect(lines[card + 2]).toBe('▌ 2 No (recommended)');
    expect(lines[card + 3]).toBe(API_KEY_DIALOG[0]); // the screen itself under the card
    expect(footer()).toContain('1-9 answer');

    m.stdin.press('2');
    await eventually(m.out, () => expect(m!.actions.runner(api.id).typed()).toBe('2'));
    await eventually(m.out, () => expect(footer()).toContain('typed 2 into api'));
    expect(m.actions.connections).toEqual(['board-keys api']);
    m.stdin.press('1');
    await eventually(m.out, () => expect(m!.actions.runner(api.id).typed()).toBe('21'));
    expect(m.actions.connections).toEqual(['board-keys api']); // the same connection: keys arrive in order
    expect(m.left).toEqual([]);
  });

  it('digits do nothing to a session that is not waiting, and it shows no card', async () => {
    const sh = session({ name: 'sh' });
    const feed = new FakeFeed([sh]);
    m = mountBoard(feed, { cols: 80, rows: 24 });
    feed.setScreen(screen(sh.id, API_KEY_DIALOG)); // the same text, but the session is idle
    await eventually(m.out, () => expect(m!.out.text()).toContain('Do you want to use this API key?'));
    expect(m.out.text()).not.toContain('▌');
    expect(footer()).not.toContain('1-9 answer');
    m.stdin.press('2');
    m.stdin.press('j');
    await new Promise((r) => setTimeout(r, 50));
    expect(m.actions.connections).toEqual([]);
  });
});

describe('typing into a session (i)', () => {
  it('sends every key as typed, shows the screen with its cursor, and Ctrl-\\ comes back; keys after it are the board\'s', async () => {
    const alpha = session({ name: 'alpha' });
    const beta = session({ name: 'beta' });
    const feed = new FakeFeed([alpha, beta]);
    m = mountBoard(feed, { cols: 80, rows: 24 });
    feed.setScreen(screen(alpha.id, ['$ '], { cursorX: 2, cursorY: 0 }));
    await eventually(m.out, () => expect(m!.out.text()).toContain('› ● alpha'));

    m.stdin.press('i');
    await eventually(m.out, () => expect(m!.out.lines()[0]!.trimEnd()).toBe(' typing into alpha — Ctrl-\\ back'));
    expect(m.out.lines()[22]).toBe('keys go to alpha as typed; Ctrl-\\ back to the board');
    expect(m.out.text()).not.toContain('beta'); // the screen alone
    // The cursor cell is drawn inverse, after the prompt.
    const cursorRow = m.out.lines().findIndex((l) => l.startsWith('$'));
    expect(m.out.term.buffer.active.getLine(cursorRow)!.getCell(2)!.isInverse()).toBeTruthy();

    // Letters the board would take as commands, Enter, an arrow key, Ctrl-C, a lone Escape.
    await m.stdin.type('q', 'x', 'echo hi', KEY.enter, KEY.up, KEY.ctrlC, KEY.esc);
    const runner = m.actions.runner(alpha.id);
    await eventually(m.out, () => expect(runner.typed()).toBe('qxecho hi\r\x1b[A\x03\x1b'));
    expect(m.left).toEqual([]); // q did not quit
    expect(m.actions.calls).toEqual([]); // x did not kill

    // The preview is the view: it follows the session's screen.
    feed.setScreen(screen(alpha.id, ['$ echo hi', 'hi', '$ '], { cursorX: 2, cursorY: 2 }));
    await eventually(m.out, () => expect(m!.out.lines().slice(1, 4)).toEqual(['── alpha (idle) 80x3 ' + '─'.repeat(59), '$ echo hi', 'hi']));
    expect(m.out.term.buffer.active.getLine(4)!.getCell(2)!.isInverse()).toBeTruthy(); // the cursor moved with it

    m.stdin.press(CTRL_BACKSLASH + 'j'); // back, and the j in the same read moves the selection
    await eventually(m.out, () => expect(m!.out.text()).toContain('› ● beta'));
    expect(footer()).toContain('stopped typing into alpha');
    expect(runner.typed()).toBe('qxecho hi\r\x1b[A\x03\x1b');
  });

  it('i and keys in the same read: the keys after i go to the session', async () => {
    const alpha = session({ name: 'alpha' });
    m = mountBoard(new FakeFeed([alpha]), { cols: 80, rows: 24 });
    await eventually(m.out, () => expect(m!.out.text()).toContain('› ● alpha'));
    m.stdin.press('ils\r');
    await eventually(m.out, () => expect(m!.actions.runner(alpha.id).typed()).toBe('ls\r'));
    // The keys reach the session in the read; the typing bar is drawn with the commit after it.
    await eventually(m.out, () => expect(m!.out.lines()[0]!.trimEnd()).toBe(' typing into alpha — Ctrl-\\ back'));
  });

  it('ends with a line when the program exits meanwhile; refuses a session that is not running', async () => {
    const alpha = session({ name: 'alpha' });
    const done = session({ name: 'done', status: 'exited', exitCode: 0 });
    m = mountBoard(new FakeFeed([alpha, done]), { cols: 80, rows: 24 });
    await eventually(m.out, () => expect(m!.out.text()).toContain('› ● alpha'));
    m.stdin.press('i');
    await eventually(m.out, () => expect(m!.out.lines()[0]).toContain('typing into alpha'));
    m.stdin.press('x');
    await eventually(m.out, () => expect(m!.actions.runner(alpha.id).typed()).toBe('x'));
    m.actions.runner(alpha.id).emit({ type: 'exit', code: 3, signal: null });
    await eventually(m.out, () => expect(footer()).toContain('alpha exited with code 3'));
    expect(m.out.text()).toContain('› ● alpha');

    m.stdin.press('j');
    m.stdin.press('i');
    await eventually(m.out, () => expect(footer()).toContain('done is not running (exited): i types into it needs its runner'));
    expect(m.out.lines()[0]).toMatch(/^agent-board/);
  });
});

describe('the agent column', () => {
  it('names the agent a shell session runs in its foreground, on the row and in the preview title', async () => {
    const a = session({ name: 'alpha', foregroundAgent: 'claude' });
    const b = session({ name: 'beta', agent: 'codex' });
    const feed = new FakeFeed([a, b]);
    m = mountBoard(feed, { cols: 80, rows: 24 });
    feed.setScreen(screen(a.id, ['hello']));
    await eventually(m.out, () => expect(m!.out.lines()[1]).toMatch(/^› ● alpha +shell › claude +idle /));
    expect(m.out.lines()[2]).toMatch(/^ {2}● beta +codex +idle /);
    // The screen's size reaches the title with the screen, which may be a frame after the rows.
    await eventually(m.out, () => expect(m!.out.text()).toMatch(/── alpha \(idle\) shell › claude 80x1 ─+/));
  });
});
