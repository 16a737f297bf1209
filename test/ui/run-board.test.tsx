import { describe, expect, it } from 'vitest';
import './no-ci.js'; // before anything loads Ink
import { NONE, type Disposable } from '../../src/core/lifetime.js';
import { parseDetachKey, type DetachKey } from '../../src/core/terminal/detach-key.js';
import { UserError } from '../../src/state/errors.js';
import type { SessionView } from '../../src/state/host-store.js';
import { runBoard } from '../../src/ui/run-board.js';
import { MemoryLog, FakeActions, FakeFeed, session } from './fakes.js';
import { FakeRunner } from './fake-runner.js';
import { eventually, FakeStdin, FakeStdout, KEY } from './harness.js';
import { REAL_TIME } from '../helpers/real-time.js';
import type { Time } from '../../src/core/clock.js';

const detachKey = (parseDetachKey('ctrl-\\') as { ok: true; key: DetachKey }).key;
const CTRL_BACKSLASH = '\x1c';

function start(feed: FakeFeed, connect: (s: SessionView) => () => Promise<import('../../src/client/link/connection.js').RunnerConnection>, time: Time = REAL_TIME) {
  const out = new FakeStdout(80, 24);
  const stdin = new FakeStdin();
  const actions = new FakeActions();
  const done = runBoard({
    home: '/nowhere',
    feed,
    actions,
    time,
    log: new MemoryLog(),
    stdin: stdin as never,
    stdout: out as never,
    detachKey,
    newDefaults: { kind: 'shell', name: '', command: '/bin/sh', cwd: '/', room: 'default', worktree: false, branch: '' },
    connect,
    reconnectDelaysMs: [],
  });
  return { out, stdin, actions, done };
}

describe('runBoard', () => {
  it('attaches with Enter, hands the keys to the session, and after a detach the board answers keys at once', async () => {
    const alpha = session({ name: 'alpha' });
    const beta = session({ name: 'beta' });
    const feed = new FakeFeed([alpha, beta]);
    const runners: FakeRunner[] = [];
    const { out, stdin, actions, done } = start(feed, (s) => async () => {
      const r = new FakeRunner(`\x1b[H\x1b[2Jinside ${s.name}\r\n$ `);
      runners.push(r);
      return r.asConnection();
    });
    await eventually(out, () => expect(out.text()).toContain('› ● alpha'));
    expect(out.term.buffer.active.type).toBe('alternate');

    stdin.press(KEY.enter + 'echo ');  // typed on at once: the session gets it
    await eventually(out, () => expect(out.lines()[0]).toBe('inside alpha'));
    expect(feed.previewFor.at(-1)).toBeNull(); // nobody watches the preview while attached
    await stdin.type('l', 's', '\r');
    await eventually(out, () => expect(runners[0]!.typed()).toBe('echo ls\r'));
    // Reconnect order: reconcile, then the subscription carrying our size (the first frame is drawn at it).
    expect(runners[0]!.sent.map((m) => m.type).slice(0, 2)).toEqual(['reconcile', 'subscribe_terminal']);
    expect(runners[0]!.sent[1]).toMatchObject({ type: 'subscribe_terminal', cols: 80, rows: 24 });

    stdin.press(CTRL_BACKSLASH + 'j'); // the j in the same read is the board's, not the session's
    await eventually(out, () => expect(out.text()).toContain('detached from alpha'));
    expect(out.term.buffer.active.type).toBe('alternate');
    expect(out.text()).not.toContain('inside alpha');
    expect(runners[0]!.closed).toBe(true);
    // Straight away: raw, read by Ink, keys acted on.
    expect(stdin.isRaw).toBe(true);
    expect(stdin.listenerCount('readable')).toBe(1);
    expect(stdin.listenerCount('data')).toBe(0);
    await eventually(out, () => expect(out.text()).toContain('› ● beta'), 500);
    expect(runners[0]!.typed()).toBe('echo ls\r');
    stdin.press('k');
    await eventually(out, () => expect(out.text()).toContain('› ● alpha'), 500);
    stdin.press('j');
    await eventually(out, () => expect(out.text()).toContain('› ● beta'), 500);

    // The session exits while attached: back on the board with the exit shown.
    stdin.press(KEY.enter);
    await eventually(out, () => expect(out.lines()[0]).toBe('inside beta'));
    runners[1]!.emit({ type: 'exit', code: 3, signal: null });
    await eventually(out, () => expect(out.text()).toContain('beta exited with code 3'));
    stdin.press('k');
    await eventually(out, () => expect(out.text()).toContain('› ● alpha'), 500);

    stdin.press('q');
    await done;
    await out.flush();
    expect(out.term.buffer.active.type).toBe('normal');
    expect(stdin.isRaw).toBe(false);
    expect(stdin.listenerCount('readable')).toBe(0);
    expect(actions.calls).toEqual([]); // sessions left as they were
  });

  it('starts connecting at the Enter itself, while the board still has a tick and a render to go', async () => {
    const feed = new FakeFeed([session({ name: 'alpha' })]);
    // The board's leave waits a tick (its own timer): held here until the connection has been asked for.
    const held: (() => void)[] = [];
    let holding = false;
    const time: Time = {
      clock: REAL_TIME.clock,
      scheduler: {
        setInterval: (fn, ms) => REAL_TIME.scheduler.setInterval(fn, ms),
        setTimeout: (fn, ms) => {
          if (!holding || ms !== 0) return REAL_TIME.scheduler.setTimeout(fn, ms);
          held.push(fn);
          return NONE;
        },
      },
    };
    let connects = 0;
    const { out, stdin, done } = start(
      feed,
      () => async () => {
        connects++;
        return new FakeRunner('\x1b[H\x1b[2Jinside alpha\r\n$ ').asConnection();
      },
      time,
    );
    await eventually(out, () => expect(out.text()).toContain('› ● alpha'));
    holding = true;
    stdin.press(KEY.enter);
    await eventually(out, () => expect(held.length).toBeGreaterThan(0));
    expect(connects).toBe(1); // before the board's tick: the hello's round trip overlaps its leaving
    holding = false;
    for (const fn of held.splice(0)) fn();
    await eventually(out, () => expect(out.lines()[0]).toBe('inside alpha'));
    stdin.press(CTRL_BACKSLASH);
    await eventually(out, () => expect(out.text()).toContain('detached from alpha'));
    stdin.press('q');
    await done;
  });

  it('a session that cannot be reached is a line on the board, not a crash', async () => {
    const feed = new FakeFeed([session({ name: 'alpha' })]);
    let typeWhileConnecting = () => {};
    const { out, stdin, actions, done } = start(feed, () => async () => {
      typeWhileConnecting();
      await new Promise((r) => setTimeout(r, 20));
      throw new UserError('cannot reach session alpha: connect ECONNREFUSED');
    });
    typeWhileConnecting = () => stdin.press('x');
    await eventually(out, () => expect(out.text()).toContain('› ● alpha'));
    stdin.press(KEY.enter + 'xy'); // typed for the session: never the board's (x then y would kill)
    await eventually(out, () => expect(out.text()).toContain('cannot reach session alpha: connect ECONNREFUSED'));
    await new Promise((r) => setTimeout(r, 100));
    expect(out.text()).not.toContain('Kill alpha?');
    expect(actions.calls).toEqual([]);
    stdin.press('q');
    await done;
    await out.flush();
    expect(out.term.buffer.active.type).toBe('normal');
  });

  it('a runner that goes away mid-attach brings the board back with the lost message', async () => {
    const feed = new FakeFeed([session({ name: 'alpha' })]);
    let runner: FakeRunner | null = null;
    let closeIt: (() => void) | null = null;
    const { out, stdin, done } = start(feed, () => async () => {
      if (runner) throw new Error('gone');
      runner = new FakeRunner('\x1b[H\x1b[2Jinside');
      const conn = runner.asConnection() as unknown as { onClose(fn: () => void): Disposable };
      conn.onClose = (fn) => {
        closeIt = fn;
        return NONE;
      };
      return runner.asConnection();
    });
    await eventually(out, () => expect(out.text()).toContain('› ● alpha'));
    stdin.press(KEY.enter);
    await eventually(out, () => expect(out.lines()[0]).toBe('inside'));
    closeIt!();
    await eventually(out, () => expect(out.text()).toContain('lost the connection to the session and could not reconnect (alpha)'));
    stdin.press('q');
    await done;
  });

  it('leaves no listeners behind, attach after attach', async () => {
    const feed = new FakeFeed([session({ name: 'alpha' })]);
    const { out, stdin, done } = start(feed, () => async () => new FakeRunner('\x1b[H\x1b[2Jinside').asConnection());
    await eventually(out, () => expect(out.text()).toContain('› ● alpha'));
    const before = { stdin: stdin.eventNames().map((e) => [e, stdin.listenerCount(e)]), stdout: out.listenerCount('resize') };
    for (let i = 0; i < 12; i++) {
      stdin.press(KEY.enter);
      await eventually(out, () => expect(out.lines()[0]).toBe('inside'));
      stdin.press(CTRL_BACKSLASH);
      await eventually(out, () => expect(out.text()).toContain('detached from alpha'));
    }
    expect({ stdin: stdin.eventNames().map((e) => [e, stdin.listenerCount(e)]), stdout: out.listenerCount('resize') }).toEqual(before);
    stdin.press('q');
    await done;
  });
});
