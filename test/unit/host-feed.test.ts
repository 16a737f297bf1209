/**
 * The board's rows of several machines without ssh: the pure parts (keys by host and id, the
 * merged list, the backoff, the lines the far side prints) and one host's link
 * (src/client/remote/host-feed.ts) driven by the fake clock over a fake ssh child: it reconnects with
 * a capped backoff, keeps its rows stale meanwhile, gives up on a silent link, and asks
 * `ls --json` of an agent-board without `feed`.
 */
import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { HostFeed } from '../../src/client/remote/host-feed.js';
import { HOST_HELLO_MS, HOST_SILENCE_MS, POLL_MS, endReason, olderFarSide } from '../../src/client/remote/host-link.js';
import { feedLine, parseFeedLine } from '../../src/client/remote/host-lines.js';
import { backoffMs, boardHosts, isRemoteKey, mergeRows, remoteKey, remoteRoom, unreachableLine } from '../../src/client/remote/host-rows.js';
import type { SessionView } from '../../src/state/host-store.js';
import { FakeTime } from '../helpers/fake-time.js';

function view(id: string, name: string, extra: Partial<SessionView> = {}): SessionView {
  return {
    id, name, agent: 'shell', command: 'sh', args: [], cwd: '/', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
    heartbeatAt: '2026-01-01T00:00:00.000Z', status: 'running', cols: 80, rows: 24, runnerPid: 1, childPid: 2, exitCode: null, exitSignal: null,
    runnerAlive: true, ...extra,
  } as SessionView;
}

describe('rows of several machines (pure)', () => {
  it('keys remote rows by host and id, so the same id on two machines and here are three rows', () => {
    const rows = mergeRows([view('abc', 'here')], [
      { host: 'alpha', sessions: [view('abc', 'far')], stale: false },
      { host: 'beta', sessions: [view('abc', 'far', { room: 'ops' })], stale: true },
    ]);
    expect(rows.map((r) => [r.id, r.host, r.remoteId, r.room, r.stale])).toEqual([
      ['abc', undefined, undefined, undefined, undefined],
      ['alpha/abc', 'alpha', 'abc', 'alpha/default', undefined],
      ['beta/abc', 'beta', 'abc', 'beta/ops', true],
    ]);
    expect(new Set(rows.map((r) => r.id)).size).toBe(3);
    expect(rows.map((r) => isRemoteKey(r.id))).toEqual([false, true, true]);
    expect(remoteKey('me@box', 'f00')).toBe('me@box/f00');
    expect(remoteRoom('me@box/ops')).toEqual({ host: 'me@box', room: 'ops' });
    expect(remoteRoom('default')).toBeNull();
  });

  it('backs off 1, 2, 5, then 10 s at most', () => {
    expect([1, 2, 3, 4, 5, 50].map(backoffMs)).toEqual([1000, 2000, 5000, 10_000, 10_000, 10_000]);
    expect(unreachableLine('box', 'ssh: refused', 9600)).toBe('box: unreachable (ssh: refused); retrying in 10 s');
    expect(unreachableLine('box', 'ssh: refused', null)).toBe('box: unreachable (ssh: refused); retrying now');
  });

  it('takes the hosts of --host first, then config.json, each once', () => {
    expect(boardHosts(['b', 'a'], ['a', 'c'])).toEqual(['b', 'a', 'c']);
  });

  it("reads the far side's lines and skips anything else", () => {
    const line = feedLine({ type: 'sessions', sessions: [view('x1', 'one')] });
    expect(parseFeedLine(line)).toEqual({ type: 'sessions', sessions: [view('x1', 'one')] });
    expect(parseFeedLine('{"type":"alive"}')).toEqual({ type: 'alive' });
    expect(parseFeedLine(feedLine({ type: 'sessions', sessions: [], pausedRooms: ['ops', '../x', 'a/b'] }))).toEqual({ type: 'sessions', sessions: [], pausedRooms: ['ops'] });
    expect(parseFeedLine('Welcome to box')).toBeNull();
    expect(parseFeedLine('{"type":"sessions","sessions":[{"id":1}]}')).toEqual({ type: 'sessions', sessions: [] });
    expect(parseFeedLine('{"type":"later"}')).toBeNull();
  });

  it('tells an older agent-board there from a failure, and says why a link ended', () => {
    expect(olderFarSide({ code: 2 }, "error: unknown option '--json'")).toBe(true);
    expect(olderFarSide({ code: 2 }, 'agent-board: unknown command "feed"; see: agent-board --help')).toBe(true);
    expect(olderFarSide({ code: 2 }, 'agent-board: invalid --host')).toBe(false);
    expect(olderFarSide({ code: 255 }, 'ssh: connect to host box port 22: Connection refused')).toBe(false);
    expect(endReason({ code: 255 }, 'ssh: connect to host box port 22: Connection refused')).toBe('ssh: connect to host box port 22: Connection refused');
    expect(endReason({ code: 255 }, 'root@box: Permission denied (publickey).')).toBe('ssh: root@box: Permission denied (publickey).');
    expect(endReason({ code: 1 }, 'agent-board: the home is not private')).toBe('agent-board there: the home is not private');
    expect(endReason({ code: null }, '')).toBe('the link was cut');
  });
});

/** A child with stdout and stderr the test writes, that "exits" when told or killed. */
class FakeChild extends EventEmitter {
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  readonly stdin = new PassThrough();
  killed = false;
  /** A started child has a pid (never signalled by number: it is ended through its kill()). */
  readonly pid = 4_194_305;
  exitCode: number | null = null;
  signalCode: string | null = null;
  line(s: string): void {
    this.stdout.write(s + '\n');
  }
  exit(code: number | null, stderr = ''): void {
    if (stderr) this.stderr.write(stderr + '\n');
    this.stdout.end();
    this.stderr.end();
    // After the streams' data is out, as a real child's close comes after its output.
    setImmediate(() => {
      this.exitCode = code;
      this.emit('exit', code, null);
      this.emit('close', code);
    });
  }
  kill(): boolean {
    if (!this.killed) {
      this.killed = true;
      this.exit(null);
    }
    return true;
  }
}

const flush = () => new Promise((r) => setImmediate(r));
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await flush();
}

describe('one host’s link (fake clock, fake ssh)', () => {
  let feed: HostFeed | null = null;
  afterEach(() => feed?.dispose());

  function start(polls: Array<() => Promise<SessionView[]>> = []) {
    const time = new FakeTime();
    const children: FakeChild[] = [];
    let changes = 0;
    feed = new HostFeed({
      host: 'box',
      time: { clock: time, scheduler: time },
      open: () => {
        const c = new FakeChild();
        children.push(c);
        return c as unknown as ChildProcess;
      },
      poll: () => (polls.shift() ?? (() => Promise.reject(new Error('no poll'))))(),
    });
    feed.onChange(() => changes++);
    return { time, children, feed, changes: () => changes };
  }

  it('shows the rows live, keeps them stale while the link is down, and reconnects after 1, 2, 5, 10, 10 s', async () => {
    const { time, children, feed } = start();
    expect(children).toHaveLength(1);
    expect(feed.line(time.now())).toBeNull(); // the first try is not a failure yet
    children[0]!.line(feedLine({ type: 'sessions', sessions: [view('a1', 'far')] }));
    await settle();
    expect(feed.sessions.map((s) => s.id)).toEqual(['a1']);
    expect(feed.stale).toBe(false);

    children[0]!.exit(null); // the link dropped
    await settle();
    expect(feed.stale).toBe(true);
    expect(feed.sessions.map((s) => s.id)).toEqual(['a1']); // kept, not dropped
    expect(feed.line(time.now())).toBe('box: unreachable (the link was cut); retrying in 1 s');
    for (const [i, wait] of [1000, 2000, 5000, 10_000, 10_000].entries()) {
      time.advance(wait - 1);
      expect(children).toHaveLength(i + 1); // not a moment early
      time.advance(1);
      expect(children).toHaveLength(i + 2);
      children[i + 1]!.exit(255, 'ssh: connect to host box port 22: Connection refused');
      await settle();
      expect(feed.line(time.now())).toMatch(/^box: unreachable \(ssh: connect to host box port 22: Connection refused\); retrying in \d+ s$/);
    }
    time.advance(10_000);
    const last = children.at(-1)!;
    last.line(feedLine({ type: 'sessions', sessions: [view('a1', 'far'), view('a2', 'new')] }));
    await settle();
    expect(feed.stale).toBe(false);
    expect(feed.line(time.now())).toBeNull();
    expect(feed.sessions.map((s) => s.id)).toEqual(['a1', 'a2']);
    // Live again: the next drop is retried after 1 s, not 10.
    last.exit(null);
    await settle();
    const n = children.length;
    time.advance(1000);
    expect(children).toHaveLength(n + 1);
  });

  it('gives up on a far side that never answers, and on a link gone silent', async () => {
    const { time, children, feed } = start();
    time.advance(HOST_HELLO_MS);
    await settle();
    expect(children[0]!.killed).toBe(true);
    expect(feed.line(time.now())).toBe(`box: unreachable (no answer within ${HOST_HELLO_MS / 1000} s); retrying in 1 s`);
    time.advance(1000);
    children[1]!.line(feedLine({ type: 'sessions', sessions: [] }));
    await settle();
    time.advance(HOST_SILENCE_MS - 1000);
    children[1]!.line(feedLine({ type: 'alive' })); // a keepalive resets the watch
    await settle();
    time.advance(HOST_SILENCE_MS - 1);
    expect(children[1]!.killed).toBe(false);
    time.advance(1);
    await settle();
    expect(children[1]!.killed).toBe(true);
    expect(feed.line(time.now())).toMatch(/silent for 35 s/);
  });

  it('asks ls --json every POLL_MS of an agent-board there without feed', async () => {
    const { time, children, feed } = start([async () => [view('o1', 'old')], async () => [view('o1', 'old'), view('o2', 'older')]]);
    children[0]!.exit(2, "error: unknown option '--json'");
    await settle();
    expect(feed.sessions.map((s) => s.id)).toEqual(['o1']);
    expect(feed.state).toEqual({ kind: 'live', mode: 'poll' });
    time.advance(POLL_MS);
    await settle();
    expect(feed.sessions.map((s) => s.id)).toEqual(['o1', 'o2']);
    expect(children).toHaveLength(1); // no more feeds tried
    time.advance(POLL_MS);
    await settle();
    expect(feed.stale).toBe(true); // the poll failed: stale, retried after the backoff
    expect(feed.line(time.now())).toBe('box: unreachable (no poll); retrying in 1 s');
  });
});
