import { describe, expect, it } from 'vitest';
import { initialBoardState } from '../../src/core/board/board-state.js';
import { keyModeOf, matchesFilter, selectedSession, statusText, visibleSessions } from '../../src/core/board/board-derived.js';
import { NEW_FIELDS, type BoardAction, type BoardSession, type BoardState } from '../../src/core/board/board-types.js';
import { emptyBoard, run, type Board } from '../helpers/board-model.js';

const S = (name: string, over: Partial<BoardSession> = {}): BoardSession => ({
  id: `id-${name}`,
  name,
  agent: 'shell',
  command: 'bash',
  args: [],
  status: 'running',
  exitCode: null,
  exitSignal: null,
  ...over,
});

const withSessions = (list: BoardSession[], listRows = 10) => run(emptyBoard({ listRows }), { type: 'sessions', sessions: list });
const names = (b: Board) => visibleSessions(b, b.sessions).map((s) => s.name);
const many = (n: number) => Array.from({ length: n }, (_, i) => S(`s${i + 1}`));

const a = S('alpha');
const b = S('beta', { agent: 'claude' });
const c = S('gamma', { status: 'exited', exitCode: 1 });
const d = S('delta', { command: 'npm', args: ['run', 'dev'] });

describe('the list and the selection', () => {
  it('selects the first session once the list arrives', () => {
    expect(initialBoardState().selectedId).toBeNull();
    expect(withSessions([a, b]).selectedId).toBe(a.id);
  });

  it('moves and stops at the ends', () => {
    let s = withSessions([a, b, c]);
    s = run(s, { type: 'move', by: 1 }, { type: 'move', by: 1 }, { type: 'move', by: 1 });
    expect(s.selectedId).toBe(c.id);
    s = run(s, { type: 'move', by: -5 });
    expect(s.selectedId).toBe(a.id);
    s = run(s, { type: 'jump', to: 'last' });
    expect(s.selectedId).toBe(c.id);
    s = run(s, { type: 'jump', to: 'first' });
    expect(s.selectedId).toBe(a.id);
  });

  it('keeps the selected session when others appear or vanish around it', () => {
    let s = run(withSessions([a, b, c]), { type: 'move', by: 1 });
    s = run(s, { type: 'sessions', sessions: [d, a, b, c] });
    expect(selectedSession(s, s.sessions)?.name).toBe('beta');
    s = run(s, { type: 'sessions', sessions: [b, c] });
    expect(selectedSession(s, s.sessions)?.name).toBe('beta');
  });

  it('when the selected session vanishes, the next one takes its place; at the end, the one before', () => {
    let s = run(withSessions([a, b, c]), { type: 'move', by: 1 });
    s = run(s, { type: 'sessions', sessions: [a, c] });
    expect(selectedSession(s, s.sessions)?.name).toBe('gamma');
    s = run(s, { type: 'sessions', sessions: [a] });
    expect(selectedSession(s, s.sessions)?.name).toBe('alpha');
    s = run(s, { type: 'sessions', sessions: [] });
    expect(selectedSession(s, s.sessions)).toBeNull();
    s = run(s, { type: 'sessions', sessions: [b, c] });
    expect(selectedSession(s, s.sessions)?.name).toBe('beta');
  });

  it('selects a session asked for before the feed shows it, once it does', () => {
    let s = run(withSessions([a, b]), { type: 'select', id: d.id });
    expect(s.selectedId).toBe(a.id);
    s = run(s, { type: 'sessions', sessions: [a, b, d] });
    expect(s.selectedId).toBe(d.id);
    expect(s.wantedId).toBeNull();
  });

  it('a move by the user cancels a selection still waiting for its session', () => {
    let s = run(withSessions([a, b]), { type: 'select', id: d.id }, { type: 'move', by: 1 });
    s = run(s, { type: 'sessions', sessions: [a, b, d] });
    expect(s.selectedId).toBe(b.id);
  });
});

describe('filter', () => {
  it('matches name, agent, command line and status, every word, any case', () => {
    expect(matchesFilter(b, 'CLAUDE')).toBe(true);
    expect(matchesFilter(d, 'run dev')).toBe(true);
    expect(matchesFilter(d, 'npm test')).toBe(false);
    expect(matchesFilter(c, 'exited')).toBe(true);
    expect(matchesFilter(a, '  ')).toBe(true);
    // A row of another machine (the board's --host) by its host.
    expect(matchesFilter({ ...b, host: 'me@alpha' }, 'alpha claude')).toBe(true);
    expect(matchesFilter(b, 'alpha')).toBe(false);
  });

  it("matches what the row is, never the arguments agent-board wrote for a kind (the demo's --peer bob)", () => {
    const demo = (name: string, peer: string) => S(name, { agent: 'demo', command: '/usr/bin/node', args: ['/x/dist/demo/demo-agent.js', '--name', name, '--peer', peer, '--room', 'demo'] });
    const s = withSessions([demo('alice', 'bob'), demo('bob', 'alice')]);
    expect(names(run(s, { type: 'open-filter' }, { type: 'type', text: 'bob' }))).toEqual(['bob']);
    expect(names(run(s, { type: 'open-filter' }, { type: 'type', text: 'demo' }))).toEqual(['alice', 'bob']);
    // The program as ls shows it still matches (a node script by its name), and a shell's own command line as typed.
    expect(matchesFilter(demo('alice', 'bob'), 'demo-agent')).toBe(true);
    expect(matchesFilter(demo('alice', 'bob'), 'node')).toBe(false);
    expect(matchesFilter(S('c', { agent: 'claude', command: '/usr/local/bin/claude', args: ['--settings', '/home/x/hooks.json'] }), 'hooks')).toBe(false);
  });

  it('narrows as it is typed, keeps the selection on a match, and Esc drops it', () => {
    let s = run(withSessions([a, b, c, d]), { type: 'open-filter' });
    expect(keyModeOf(s)).toBe('filter');
    s = run(s, { type: 'type', text: 'el' }, { type: 'type', text: 't' });
    expect(names(s)).toEqual(['delta']);
    expect(selectedSession(s, s.sessions)?.name).toBe('delta');
    s = run(s, { type: 'delete-back' }); // "el": in "shell", not in beta's "claude"
    expect(names(s)).toEqual(['alpha', 'gamma', 'delta']);
    expect(selectedSession(s, s.sessions)?.name).toBe('delta'); // still shown: kept
    s = run(s, { type: 'close' });
    expect(s.filter).toBe('');
    expect(keyModeOf(s)).toBe('list');
  });

  it('Enter keeps the filter on the list; clear takes it off', () => {
    let s = run(withSessions([a, b, c]), { type: 'open-filter' }, { type: 'type', text: 'gam' }, { type: 'accept-filter' });
    expect(keyModeOf(s)).toBe('list');
    expect(names(s)).toEqual(['gamma']);
    s = run(s, { type: 'clear' });
    expect(names(s)).toEqual(['alpha', 'beta', 'gamma']);
    expect(selectedSession(s, s.sessions)?.name).toBe('gamma');
  });

  it('a filter that matches nothing keeps the selection for when it matches again', () => {
    let s = run(withSessions([a, b]), { type: 'move', by: 1 }, { type: 'open-filter' }, { type: 'type', text: 'zzz' });
    expect(names(s)).toEqual([]);
    expect(selectedSession(s, s.sessions)).toBeNull();
    s = run(s, { type: 'clear-field' });
    expect(selectedSession(s, s.sessions)?.name).toBe('beta');
  });
});

describe('scrolling', () => {
  it('keeps the selection inside the window with 100 sessions', () => {
    let s = withSessions(many(100), 8);
    s = run(s, ...Array.from({ length: 10 }, () => ({ type: 'move', by: 1 }) as const));
    expect(selectedSession(s, s.sessions)?.name).toBe('s11');
    expect(s.scroll).toBe(3); // rows 3..10 on screen, s11 at the bottom
    s = run(s, { type: 'jump', to: 'last' });
    expect(selectedSession(s, s.sessions)?.name).toBe('s100');
    expect(s.scroll).toBe(92);
    s = run(s, { type: 'page', by: -1 });
    expect(selectedSession(s, s.sessions)?.name).toBe('s93');
    expect(s.scroll).toBe(92);
    s = run(s, { type: 'page', by: -1 });
    expect(selectedSession(s, s.sessions)?.name).toBe('s86');
    expect(s.scroll).toBe(85);
    s = run(s, { type: 'jump', to: 'first' });
    expect(s.scroll).toBe(0);
  });

  it('follows a smaller window and a shorter list', () => {
    let s = run(withSessions(many(100), 20), { type: 'jump', to: 'last' });
    expect(s.scroll).toBe(80);
    s = run(s, { type: 'viewport', rows: 5 });
    expect(s.scroll).toBe(95);
    s = run(s, { type: 'viewport', rows: 50 });
    expect(s.scroll).toBe(50); // never past the end
    s = run(s, { type: 'sessions', sessions: many(30) });
    expect(selectedSession(s, s.sessions)?.name).toBe('s30');
    expect(s.scroll).toBe(0);
  });

  it('a filter scrolls back to where its matches are', () => {
    let s = run(withSessions(many(100), 8), { type: 'jump', to: 'last' });
    s = run(s, { type: 'open-filter' }, { type: 'type', text: 's1' });
    expect(visibleSessions(s, s.sessions)).toHaveLength(12); // s1, s10-s19, s100
    expect(selectedSession(s, s.sessions)?.name).toBe('s100');
    expect(s.scroll).toBe(4);
  });
});

describe('the new-session form', () => {
  const defaults = { kind: 'shell', name: '', command: '/bin/bash', cwd: '/home/me', room: 'default', worktree: false, branch: '' };
  const kinds = [
    { name: 'shell', program: null, installed: true },
    { name: 'claude', program: 'claude', installed: true },
    { name: 'codex', program: 'codex', installed: false },
    { name: 'demo', program: null, installed: true },
  ];
  const open = (...more: BoardAction[]) => run(withSessions([a]), { type: 'open-new', defaults, kinds }, ...more);
  const form = (s: BoardState) => s.overlay as Extract<BoardState['overlay'], { kind: 'new' }>;

  it('opens on the kind; Tab goes round kind, name, command, folder, room, worktree and sandbox (the branch only with a worktree)', () => {
    let s = open();
    expect(keyModeOf(s)).toBe('form');
    expect(form(s)).toMatchObject({ focus: 0, fields: defaults });
    const order: string[] = [];
    for (let i = 0; i < 7; i++) {
      s = run(s, { type: 'focus-field', by: 1 });
      order.push(NEW_FIELDS[form(s).focus]!);
    }
    expect(order).toEqual(['name', 'command', 'cwd', 'room', 'worktree', 'sandbox', 'kind']);
    s = run(s, { type: 'focus-field', by: -1 }, { type: 'focus-field', by: -1 }, { type: 'type', text: ' ' }, { type: 'focus-field', by: 1 });
    expect(NEW_FIELDS[form(s).focus]).toBe('branch');
  });

  it('the sandbox: as config.json says, then on, off and round again (Space or right; left goes back)', () => {
    let s = open({ type: 'focus-field', by: -1 });
    expect(NEW_FIELDS[form(s).focus]).toBe('sandbox');
    expect(form(s).fields.sandbox).toBeUndefined();
    s = run(s, { type: 'type', text: ' ' });
    expect(form(s).fields.sandbox).toBe('on');
    s = run(s, { type: 'new-choose', by: 1 });
    expect(form(s).fields.sandbox).toBe('off');
    s = run(s, { type: 'new-choose', by: 1 });
    expect(form(s).fields.sandbox).toBeUndefined();
    s = run(s, { type: 'new-choose', by: -1 }, { type: 'type', text: 'x' });
    expect(form(s).fields.sandbox).toBe('off');
  });

  it('the kind: left/right cycle, a letter picks the next kind it starts; the command follows while untouched', () => {
    let s = open({ type: 'new-choose', by: 1 });
    expect(form(s).fields).toMatchObject({ kind: 'claude', command: '' }); // an agent runs its own program
    s = run(s, { type: 'type', text: 'c' });
    expect(form(s).fields.kind).toBe('codex');
    s = run(s, { type: 'type', text: 'c' }, { type: 'type', text: 'x' });
    expect(form(s).fields.kind).toBe('claude'); // round again; x starts no kind
    s = run(s, { type: 'new-choose', by: -1 });
    expect(form(s).fields).toMatchObject({ kind: 'shell', command: '/bin/bash' });
    // Typed in: the command stays what was typed whatever the kind.
    s = run(s, { type: 'focus-field', by: 1 }, { type: 'focus-field', by: 1 }, { type: 'clear-field' }, { type: 'type', text: '--model opus' });
    s = run(s, { type: 'focus-field', by: -1 }, { type: 'focus-field', by: -1 }, { type: 'type', text: 'c' });
    expect(form(s).fields).toMatchObject({ kind: 'claude', command: '--model opus' });
  });

  it('the worktree toggles with Space, y/n or left/right; the branch follows the proposal until edited', () => {
    let s = open({ type: 'focus-field', by: 1 }, { type: 'type', text: 'api' });
    s = run(s, { type: 'new-proposal', branch: 'agent/api' });
    for (let i = 0; i < 4; i++) s = run(s, { type: 'focus-field', by: 1 });
    expect(NEW_FIELDS[form(s).focus]).toBe('worktree');
    s = run(s, { type: 'type', text: ' ' });
    expect(form(s).fields.worktree).toBe(true);
    s = run(s, { type: 'type', text: 'n' }, { type: 'new-choose', by: 1 });
    expect(form(s).fields.worktree).toBe(true);
    s = run(s, { type: 'focus-field', by: 1 });
    expect(form(s)).toMatchObject({ branchEdited: false, proposedBranch: 'agent/api' });
    s = run(s, { type: 'new-proposal', branch: 'agent/api2' }); // the name changed
    s = run(s, { type: 'type', text: '-x' });
    expect(form(s)).toMatchObject({ branchEdited: true, fields: { branch: 'agent/api2-x' } });
    s = run(s, { type: 'new-proposal', branch: 'agent/other' });
    expect(form(s).fields.branch).toBe('agent/api2-x'); // edited: it no longer follows
  });

  it('while pending it takes no edits; a failure shows the error and keeps the fields', () => {
    let s = open({ type: 'focus-field', by: 1 }, { type: 'type', text: 'x' }, { type: 'form-pending' });
    s = run(s, { type: 'type', text: 'yz' }, { type: 'new-choose', by: 1 });
    expect(s.overlay).toMatchObject({ pending: true, fields: { name: 'x', kind: 'shell' } });
    s = run(s, { type: 'form-failed', message: 'command not found: nope' });
    expect(s.overlay).toMatchObject({ kind: 'new', pending: false, error: 'command not found: nope', fields: { name: 'x' } });
    s = run(s, { type: 'type', text: 'y' });
    expect(s.overlay).toMatchObject({ error: null, fields: { name: 'xy' } });
  });

  it('done: closes, says so, clears the filter and selects the new session when it shows up', () => {
    let s = run(withSessions([a, b]), { type: 'open-filter' }, { type: 'type', text: 'beta' }, { type: 'accept-filter' });
    s = run(s, { type: 'open-new', defaults, kinds }, { type: 'form-pending' }, { type: 'form-done', message: 'started delta', selectId: d.id });
    expect(keyModeOf(s)).toBe('list');
    expect(s.filter).toBe('');
    expect(s.message).toEqual({ text: 'started delta', error: false });
    s = run(s, { type: 'sessions', sessions: [a, b, d] });
    expect(selectedSession(s, s.sessions)?.name).toBe('delta');
  });

  it('Esc closes it', () => {
    expect(open({ type: 'close' }).overlay).toEqual({ kind: 'none' });
  });
});

describe('rename, kill, help, messages', () => {
  it('rename starts from the current name', () => {
    let s = run(withSessions([a, b]), { type: 'move', by: 1 }, { type: 'open-rename' });
    expect(s.overlay).toMatchObject({ kind: 'rename', id: b.id, name: 'beta', value: 'beta' });
    s = run(s, { type: 'delete-back' }, { type: 'type', text: 'ox' });
    expect(s.overlay).toMatchObject({ value: 'betox' });
    s = run(s, { type: 'form-done', message: 'renamed beta to betox' });
    expect(s.overlay.kind).toBe('none');
  });

  it('kill asks first, for a session that still runs', () => {
    let s = run(withSessions([a, c]), { type: 'open-kill' });
    expect(s.overlay).toEqual({ kind: 'confirm-kill', id: a.id, name: 'alpha' });
    expect(keyModeOf(s)).toBe('confirm');
    s = run(s, { type: 'close' }, { type: 'move', by: 1 }, { type: 'open-kill' });
    expect(s.overlay.kind).toBe('none');
    expect(s.message?.text).toMatch(/gamma has already exited/);
  });

  it('nothing opens on an empty list but the form and the help', () => {
    const s = withSessions([]);
    expect(run(s, { type: 'open-kill' })).toBe(s);
    expect(run(s, { type: 'open-rename' })).toBe(s);
    expect(run(s, { type: 'move', by: 1 })).toBe(s);
    expect(keyModeOf(run(s, { type: 'open-help' }))).toBe('help');
  });

  it('messages stay until cleared or replaced', () => {
    let s = run(withSessions([a]), { type: 'message', text: 'no', error: true });
    expect(s.message).toEqual({ text: 'no', error: true });
    s = run(s, { type: 'move', by: 1 });
    expect(s.message?.text).toBe('no');
    s = run(s, { type: 'clear' });
    expect(s.message).toBeNull();
  });

  it('statusText says the state, and how an exited session ended', () => {
    expect(statusText(a)).toBe('starting'); // running, but no activity reported yet
    expect(statusText(S('w', { activity: 'waiting' }))).toBe('waiting');
    expect(statusText(S('b', { activity: 'busy' }))).toBe('busy');
    expect(statusText(S('l', { status: 'lost', activity: 'busy' }))).toBe('lost');
    expect(statusText(c)).toBe('exited 1');
    expect(statusText(S('k', { status: 'exited', exitSignal: 'SIGKILL' }))).toBe('SIGKILL');
  });
});

describe('the chat pane', () => {
  const r1 = S('ant', { room: 'r1' });
  const r2 = S('bee', { room: 'r2' });
  const old = S('old'); // from before rooms
  const chatOf = (s: BoardState) => {
    if (s.overlay.kind !== 'chat') throw new Error(`no chat open: ${s.overlay.kind}`);
    return s.overlay;
  };
  /** The chat of the selected session's room, with a log of `rows` rows showing `lines` wrapped lines. */
  const opened = (rows = 10, lines = 50) => run(withSessions([r1, r2, old]), { type: 'open-chat' }, { type: 'chat-viewport', rows, lines });

  it("c opens the selected session's room, in chat mode, with an empty line, following the newest", () => {
    let s = run(withSessions([r1, r2, old]), { type: 'message', text: 'old news' }, { type: 'move', by: 1 }, { type: 'open-chat' });
    expect(s.overlay).toEqual({ kind: 'chat', room: 'r2', input: '', pending: false, scroll: 0, rows: 0, lines: 0 });
    expect(keyModeOf(s)).toBe('chat');
    expect(s.message).toBeNull();
    s = run(s, { type: 'close' }, { type: 'jump', to: 'last' }, { type: 'open-chat' });
    expect(chatOf(s).room).toBe('default');
  });

  it('with no session selected it opens the default room', () => {
    expect(chatOf(run(withSessions([]), { type: 'open-chat' })).room).toBe('default');
    const hidden = run(withSessions([r1]), { type: 'open-filter' }, { type: 'type', text: 'zzz' }, { type: 'accept-filter' }, { type: 'open-chat' });
    expect(chatOf(hidden).room).toBe('default');
  });

  it('typing edits the line; Esc closes the pane and keeps the selection', () => {
    let s = run(opened(), { type: 'type', text: 'hi @bee' }, { type: 'delete-back' }, { type: 'type', text: 'ee!' });
    expect(chatOf(s).input).toBe('hi @beee!');
    s = run(s, { type: 'clear-field' }, { type: 'type', text: '/continue' });
    expect(chatOf(s).input).toBe('/continue');
    s = run(s, { type: 'close' });
    expect(s.overlay).toEqual({ kind: 'none' });
    expect(selectedSession(s, s.sessions)?.name).toBe('ant');
  });

  it('a post in flight holds the line; posted clears it and goes back to the newest; failed keeps it with the error as the message', () => {
    let s = run(opened(), { type: 'type', text: 'ship it' }, { type: 'page', by: -1 }, { type: 'chat-pending' });
    expect(chatOf(s)).toMatchObject({ pending: true, input: 'ship it', scroll: 9 });
    s = run(s, { type: 'type', text: 'x' }, { type: 'delete-back' });
    expect(chatOf(s).input).toBe('ship it');
    const failed = run(s, { type: 'chat-failed', message: 'chat room r1 is locked' });
    expect(chatOf(failed)).toMatchObject({ pending: false, input: 'ship it' });
    expect(failed.message).toEqual({ text: 'chat room r1 is locked', error: true });
    const posted = run(s, { type: 'chat-posted' });
    expect(chatOf(posted)).toMatchObject({ pending: false, input: '', scroll: 0 });
    expect(posted.message).toBeNull();
    expect(run(s, { type: 'chat-posted', message: 'room r1 resumed' }).message).toEqual({ text: 'room r1 resumed', error: false });
  });

  it('an outcome that arrives after the pane closed only sets the message', () => {
    const s = run(opened(), { type: 'type', text: 'x' }, { type: 'chat-pending' }, { type: 'close' }, { type: 'chat-failed', message: 'boom' });
    expect(s.overlay).toEqual({ kind: 'none' });
    expect(s.message).toEqual({ text: 'boom', error: true });
  });

  it('PageUp and PageDown scroll a page (less a line) within the history; the arrows a line; End back to the newest', () => {
    let s = opened(10, 50);
    expect(run(s, { type: 'page', by: 1 })).toBe(s); // already at the newest
    s = run(s, { type: 'page', by: -1 });
    expect(chatOf(s).scroll).toBe(9);
    s = run(s, { type: 'page', by: -1 }, { type: 'page', by: -1 }, { type: 'page', by: -1 }, { type: 'page', by: -1 }, { type: 'page', by: -1 });
    expect(chatOf(s).scroll).toBe(40); // the oldest line at the top, no further
    s = run(s, { type: 'page', by: 1 }, { type: 'move', by: 1 });
    expect(chatOf(s).scroll).toBe(30);
    s = run(s, { type: 'move', by: -1 });
    expect(chatOf(s).scroll).toBe(31);
    s = run(s, { type: 'jump', to: 'last' });
    expect(chatOf(s).scroll).toBe(0);
    s = run(s, { type: 'jump', to: 'first' });
    expect(chatOf(s).scroll).toBe(40);
    // The list's selection did not move meanwhile.
    expect(selectedSession(s, s.sessions)?.name).toBe('ant');
  });

  it('a history shorter than the pane does not scroll', () => {
    const s = opened(10, 4);
    expect(run(s, { type: 'page', by: -1 })).toBe(s);
  });

  it('new lines: followed at the bottom; scrolled back, the view stays on what it showed', () => {
    let s = run(opened(10, 50), { type: 'chat-viewport', rows: 10, lines: 53 });
    expect(chatOf(s).scroll).toBe(0);
    s = run(s, { type: 'page', by: -1 }, { type: 'chat-viewport', rows: 10, lines: 56 });
    expect(chatOf(s)).toMatchObject({ scroll: 12, lines: 56 });
    // A smaller pane (a resize): the scroll stays within the history.
    s = run(s, { type: 'jump', to: 'first' }, { type: 'chat-viewport', rows: 20, lines: 56 });
    expect(chatOf(s).scroll).toBe(36);
    expect(run(s, { type: 'chat-viewport', rows: 20, lines: 56 })).toBe(s);
  });

  it('chat actions do nothing when no chat is open', () => {
    const s = withSessions([r1]);
    for (const a of [{ type: 'chat-viewport', rows: 5, lines: 9 }, { type: 'chat-pending' }] as BoardAction[]) expect(run(s, a)).toBe(s);
  });
});

describe('rows that want attention', () => {
  it('marks the rows that rang, once each, in the order they rang', () => {
    let s = withSessions([a, b, d]);
    s = run(s, { type: 'attention', ids: [d.id] }, { type: 'attention', ids: [b.id, d.id, b.id] });
    expect(s.attention).toEqual([d.id, b.id]);
    expect(run(s, { type: 'attention', ids: [b.id] })).toBe(s);
  });

  it('moving onto a marked row clears its mark, and only its mark', () => {
    let s = run(withSessions([a, b, d]), { type: 'attention', ids: [b.id, d.id] });
    s = run(s, { type: 'move', by: 1 });
    expect(selectedSession(s, s.sessions)?.name).toBe('beta');
    expect(s.attention).toEqual([d.id]);
    s = run(s, { type: 'jump', to: 'last' });
    expect(s.attention).toEqual([]);
  });

  it('a mark on the selected row stays until the user moves off and back, or attaches', () => {
    let s = run(withSessions([a, b]), { type: 'attention', ids: [a.id] });
    expect(s.attention).toEqual([a.id]);
    s = run(s, { type: 'open-help' }, { type: 'close' }, { type: 'message', text: 'x' });
    expect(s.attention).toEqual([a.id]);
    expect(run(s, { type: 'move', by: 1 }, { type: 'move', by: -1 }).attention).toEqual([]);
    expect(run(s, { type: 'attached', id: a.id }).attention).toEqual([]);
    expect(run(s, { type: 'attached', id: b.id })).toBe(s);
  });

  it('selecting by id (a session just created) or a filter that lands on it clears it too', () => {
    let s = run(withSessions([a, b, d]), { type: 'attention', ids: [b.id, d.id] });
    s = run(s, { type: 'select', id: d.id });
    expect(s.attention).toEqual([b.id]);
    s = run(s, { type: 'open-filter' }, { type: 'type', text: 'beta' });
    expect(selectedSession(s, s.sessions)?.name).toBe('beta');
    expect(s.attention).toEqual([]);
  });

  it('the list changing under a marked row keeps the mark; a session that goes takes its mark along', () => {
    let s = run(withSessions([a, b, d]), { type: 'attention', ids: [b.id, d.id] });
    s = run(s, { type: 'sessions', sessions: [a, S('beta', { activity: 'idle' }), d] });
    expect(s.attention).toEqual([b.id, d.id]);
    s = run(s, { type: 'sessions', sessions: [a, d] });
    expect(s.attention).toEqual([d.id]);
  });

  it('the filter matches the state word', () => {
    expect(matchesFilter(S('w', { activity: 'waiting' }), 'wait')).toBe(true);
    expect(matchesFilter(S('i', { activity: 'idle' }), 'wait')).toBe(false);
  });
});
