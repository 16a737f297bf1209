import { afterEach, describe, expect, it, vi } from 'vitest';
import './no-ci.js'; // before anything loads Ink

// Colours on, as on a user's terminal (chalk reads this when it loads).
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

import { UserError } from '../../src/state/errors.js';
import { FakeActions, FakeChatFeed, FakeFeed, session } from './fakes.js';
import { colorOf, eventually, KEY } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

const RED = 1;
const YELLOW = 3;
const MAGENTA = 5;

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

const screenText = () => m!.out.text();
const lines = () => m!.out.lines();
const waitFor = (check: () => void) => eventually(m!.out, check);
/** The board's last row (Ink draws one row short of the terminal). */
const footer = () => lines()[lines().length - 2]!;
/** The chat's input line: the row above the footer. */
const inputLine = () => lines()[lines().length - 3]!.trimEnd();
/** The newest message shown: the row above the input line. */
const newest = () => lines()[lines().length - 4]!;

function twoRooms() {
  const alpha = session({ name: 'alpha', room: 'r1' });
  const beta = session({ name: 'beta', room: 'r2' });
  const gamma = session({ name: 'gamma' }); // from before rooms: the default room
  return [alpha, beta, gamma];
}

async function openChat(feed: FakeFeed, chat: FakeChatFeed, opts: { actions?: FakeActions; cols?: number; rows?: number; select?: string } = {}) {
  m = mountBoard(feed, { chat, actions: opts.actions, cols: opts.cols, rows: opts.rows });
  await waitFor(() => expect(screenText()).toContain('gamma'));
  if (opts.select) m.stdin.press(opts.select);
  m.stdin.press('c');
  await waitFor(() => expect(screenText()).toMatch(/── chat /));
}

describe('the chat pane', () => {
  it('c opens the selected session\'s room: its messages, newest at the bottom, live; Esc goes back to the list', async () => {
    const chat = new FakeChatFeed();
    chat.post('r2', { from: 'beta', kind: 'agent', text: 'tests are green' }, { from: 'human', text: 'thanks @beta' });
    await openChat(new FakeFeed(twoRooms()), chat, { select: 'j' });
    await waitFor(() => expect(chat.opened.at(-1)).toBe('r2'));
    await waitFor(() => expect(newest()).toBe('#2 09:30 human: thanks @beta'));
    expect(lines()[lines().length - 5]).toBe('#1 09:30 beta: tests are green');
    expect(screenText()).toMatch(/^── chat r2 \(beta\) ─+$/m);
    expect(inputLine()).toBe('›'); // the empty input line and its cursor
    expect(footer()).toBe('Enter send  Esc close  PgUp PgDn scroll');
    // The list stays above it.
    expect(screenText()).toMatch(/› ● beta/);

    chat.post('r2', { from: 'beta', kind: 'agent', text: 'pushed the fix' });
    await waitFor(() => expect(newest()).toBe('#3 09:30 beta: pushed the fix'));

    m!.stdin.press(KEY.esc);
    await waitFor(() => expect(screenText()).not.toContain('── chat'));
    await waitFor(() => expect(chat.opened.at(-1)).toBeNull());
    expect(footer()).toMatch(/Enter attach {2}n new .* q quit$/);
  });

  it('watches the rooms of the sessions on the board; an empty room says so', async () => {
    const chat = new FakeChatFeed();
    await openChat(new FakeFeed(twoRooms()), chat);
    expect(chat.watched.at(-1)).toEqual(['default', 'r1', 'r2']);
    await waitFor(() => expect(screenText()).toContain('No messages in room r1 yet: type one below, Enter posts it.'));
  });

  it('Enter posts the line through BoardActions; list keys are text here; the line clears', async () => {
    const actions = new FakeActions();
    const chat = new FakeChatFeed();
    await openChat(new FakeFeed(twoRooms()), chat, { actions });
    await m!.stdin.type('q', 'x', 'j', 'c', ' ', '@beta ');
    m!.stdin.press('look, a paste');
    await waitFor(() => expect(inputLine()).toBe('› qxjc @beta look, a paste'));
    m!.stdin.press(KEY.enter);
    await waitFor(() => expect(actions.calls).toEqual([{ op: 'chat', room: 'r1', text: 'qxjc @beta look, a paste' }]));
    await waitFor(() => expect(inputLine()).toBe('›'));
    expect(m!.left).toEqual([]); // the q did not quit
    // An empty line posts nothing.
    m!.stdin.press(KEY.enter);
    await new Promise((r) => setTimeout(r, 50));
    expect(actions.calls).toHaveLength(1);
  });

  it('/continue posts the continue command; the footer says the room resumed (or was not paused)', async () => {
    const actions = new FakeActions();
    actions.chatResult = async () => ({ id: 9, event: 'resume', paused: false });
    const chat = new FakeChatFeed();
    await openChat(new FakeFeed(twoRooms()), chat, { actions });
    await m!.stdin.type('/continue', KEY.enter);
    await waitFor(() => expect(footer()).toMatch(/^room r1 resumed: wakes are on again/));
    expect(actions.calls).toEqual([{ op: 'chat', room: 'r1', text: '/continue' }]);
    actions.chatResult = async () => ({ id: 10, event: null, paused: false });
    await m!.stdin.type('/continue', KEY.enter);
    await waitFor(() => expect(footer()).toMatch(/^room r1 was not paused/));
  });

  it('a failed post shows its error in the footer, in red, and keeps the line', async () => {
    const actions = new FakeActions();
    actions.chatResult = async () => {
      throw new UserError('the text is 70000 characters; a post holds at most 65536');
    };
    const chat = new FakeChatFeed();
    await openChat(new FakeFeed(twoRooms()), chat, { actions });
    await m!.stdin.type('too long', KEY.enter);
    await waitFor(() => expect(footer()).toMatch(/^the text is 70000 characters/));
    expect(colorOf(m!.out, 'the text is 70000')).toBe(RED);
    expect(inputLine()).toBe('› too long');
  });

  it('wraps long messages to the pane, indents what follows, highlights mentions and sets system messages apart', async () => {
    const chat = new FakeChatFeed();
    const long = 'please @alpha run the whole suite again with the slow tests included and tell me which ones fail';
    chat.post(
      'r1',
      { from: 'human', text: long, mentions: ['alpha'] },
      { from: 'system', kind: 'system', text: 'loop guard: 4 agent messages without a human; wakes paused.', event: 'pause' },
    );
    await openChat(new FakeFeed(twoRooms()), chat, { cols: 60, rows: 24 });
    await waitFor(() => expect(newest()).toContain('wakes paused.'));
    const rows = lines();
    expect(rows.every((l) => l.length <= 60)).toBe(true);
    const first = rows.findIndex((l) => l.startsWith('#1 09:30 human: please @alpha'));
    expect(first).toBeGreaterThan(0);
    expect(rows[first + 1]).toMatch(/^ {4}\S/);
    expect(rows.slice(first, first + 3).join(' ').replace(/\s+/g, ' ')).toContain('with the slow tests');
    expect(colorOf(m!.out, '@alpha run')).toBe(MAGENTA);
    expect(colorOf(m!.out, 'loop guard: 4')).toBe(YELLOW);
    expect(colorOf(m!.out, 'please')).toBeNull();
  });

  it('PageUp and PageDown scroll the history; End goes back to the newest; a new message keeps a scrolled view still', async () => {
    const chat = new FakeChatFeed();
    chat.post('r1', ...Array.from({ length: 40 }, (_, i) => ({ from: 'alpha', kind: 'agent' as const, text: `message ${i + 1}` })));
    await openChat(new FakeFeed(twoRooms()), chat);
    await waitFor(() => expect(newest()).toBe('#40 09:30 alpha: message 40'));
    expect(screenText()).not.toContain('message 10\n');
    m!.stdin.press(KEY.pageUp);
    await waitFor(() => expect(screenText()).not.toContain('message 40'));
    expect(screenText()).toContain('scrolled back: End for the newest');
    const shown = newest();
    chat.post('r1', { from: 'alpha', kind: 'agent', text: 'message 41' });
    await new Promise((r) => setTimeout(r, 50));
    await waitFor(() => expect(newest()).toBe(shown));
    for (let i = 0; i < 5; i++) m!.stdin.press(KEY.pageUp);
    await waitFor(() => expect(screenText()).toContain('#1 09:30 alpha: message 1\n'));
    m!.stdin.press(KEY.pageDown);
    await waitFor(() => expect(screenText()).not.toContain('message 1\n'));
    m!.stdin.press(KEY.end);
    await waitFor(() => expect(newest()).toBe('#41 09:30 alpha: message 41'));
    expect(screenText()).not.toContain('scrolled back');
  });

  it('on an empty board, c opens the default room across the screen', async () => {
    const chat = new FakeChatFeed();
    chat.post('default', { from: 'human', text: 'anyone here?' });
    m = mountBoard(new FakeFeed([]), { chat });
    await waitFor(() => expect(screenText()).toContain('No sessions yet.'));
    m.stdin.press('c');
    await waitFor(() => expect(newest()).toBe('#1 09:30 human: anyone here?'));
    expect(lines()[1]).toMatch(/^── chat default ─+$/);
  });
});

describe('a paused room', () => {
  it('the header says which room the loop guard paused and how to resume it; the pane says so too', async () => {
    const chat = new FakeChatFeed();
    m = mountBoard(new FakeFeed(twoRooms()), { chat, cols: 120, rows: 30 });
    await waitFor(() => expect(screenText()).toContain('gamma'));
    expect(lines()[0]).not.toContain('paused');
    chat.setPaused('r1', true);
    await waitFor(() => expect(lines()[0]).toMatch(/^agent-board 3 sessions +● 3 idle +⏸ room r1 paused \(loop guard\) — c then \/continue$/));
    expect(colorOf(m.out, '⏸ room r1')).toBe(YELLOW);
    m.stdin.press('c');
    await waitFor(() => expect(screenText()).toMatch(/── chat r1 \(alpha\) ⏸ paused: \/continue resumes ─+/));
    chat.setPaused('r2', true);
    await waitFor(() => expect(lines()[0]).toContain('⏸ rooms r1, r2 paused (loop guard) — c then /continue'));
    chat.setPaused('r1', false);
    chat.setPaused('r2', false);
    await waitFor(() => expect(lines()[0]).not.toContain('paused'));
  });

  it('on a narrow terminal the banner gets shorter rather than going', async () => {
    const chat = new FakeChatFeed();
    chat.setPaused('r1', true);
    m = mountBoard(new FakeFeed(twoRooms()), { chat, cols: 50, rows: 20 });
    await waitFor(() => expect(lines()[0]).toMatch(/^agent-board 3 sessions.* ⏸ room r1 paused$/));
    expect(lines()[0]!.length).toBeLessThanOrEqual(50);
  });
});

describe('help', () => {
  it('lists c and the chat pane\'s keys', async () => {
    m = mountBoard(new FakeFeed(twoRooms()), { cols: 80, rows: 24 });
    await waitFor(() => expect(screenText()).toContain('gamma'));
    m.stdin.press('?');
    await waitFor(() => expect(screenText()).toContain('Chat (c)'));
    expect(screenText()).toMatch(/^ c {9}chat in the session's room /m);
    expect(screenText()).toMatch(/ Enter {5}post; \/continue resumes$/m);
    expect(screenText()).toContain('Esc, ? or q closes this help.');
  });
});
