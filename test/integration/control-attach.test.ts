/**
 * The attach client's reconnect order (hello, reconcile, subscribe with its
 * size, resume), driven in-process against a real runner: a connection cut
 * mid-attach is back at its first reconnect with the exact screen; a new runner
 * generation makes it drop its cursor and take a fresh snapshot.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAttach } from '../../src/client/attach/attach.js';
import { RunnerConnection } from '../../src/client/link/connection.js';
import { parseDetachKey } from '../../src/core/terminal/detach-key.js';
import type { ClientMessage } from '../../src/core/protocol/client-messages.js';
import type { RunnerMessage, SnapshotBegin, SnapshotEnd } from '../../src/core/protocol/runner-messages.js';
import { isPidAlive } from '../../src/state/host-store.js';
import { socketPath } from '../../src/state/paths.js';
import { readHost, received, receivedByChild, recorderArgs, recorderDir, recorderReady } from '../helpers/control.js';
import { cliAsync, destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';
import { RawClient } from '../helpers/raw-client.js';
import { FakeTerminal, screenOf, type Screen } from '../helpers/screen.js';
import { REAL_TIME } from '../helpers/real-time.js';

let home: string;
beforeEach(() => {
  home = makeHome();
});
afterEach(() => destroyHome(home));

const detachKey = () => {
  const k = parseDetachKey('ctrl-\\');
  if (!k.ok) throw new Error(k.message);
  return k.key;
};

/** Each connection the attach opens: what it sent, what it got and when. */
interface Tapped {
  conn: RunnerConnection;
  sent: ClientMessage[];
  got: RunnerMessage[];
  liveAt: number | null;
}
function tappedConnector(id: string) {
  const conns: Tapped[] = [];
  let tries = 0;
  const connect = async () => {
    tries++;
    const conn = await RunnerConnection.open(socketPath(home, id), { scheduler: REAL_TIME.scheduler, client: 'attach-test' });
    const t: Tapped = { conn, sent: [], got: [], liveAt: null };
    const send = conn.send.bind(conn);
    conn.send = (m: ClientMessage) => {
      t.sent.push(m);
      send(m);
    };
    conn.onMessage((m) => {
      t.got.push(m);
      if (m.type === 'snapshot_end' || m.type === 'replay_begin') t.liveAt ??= Date.now();
    });
    conns.push(t);
    return conn;
  };
  /** Every connection tried, the ones that failed too. */
  return { conns, connect, attempts: () => tries };
}

/** The screen as the runner has it now: a fresh snapshot from a read-only client, played into a terminal. */
async function runnerScreen(id: string): Promise<Screen> {
  const c = await RawClient.hello(home, id, { readOnly: true });
  c.send({ type: 'subscribe_terminal' });
  const begin = await c.next<SnapshotBegin>((m) => m.type === 'snapshot_begin');
  const frame = await c.next<{ type: 'snapshot_screen'; data: string }>((m) => m.type === 'snapshot_screen');
  await c.next((m) => m.type === 'snapshot_end');
  c.close();
  return screenOf(frame.data, begin.cols, begin.rows);
}

/** The attach's screen equals the runner's, cell for cell, once both have stopped changing. */
async function sameScreen(id: string, t: FakeTerminal): Promise<Screen> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [mine, theirs] = await Promise.all([screenOf(t.screen.drawn, t.screen.columns, t.screen.rows), runnerScreen(id)]);
    if (JSON.stringify(mine) === JSON.stringify(theirs)) return mine;
    if (Date.now() > deadline) expect(mine).toEqual(theirs);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const COLOURFUL = ['--', 'sh', '-c', "stty -echo; printf '\\033[1;31mred\\033[0m \\033[42mgreen\\033[0m \\033[4munder\\033[0m\\n'; while IFS= read -r l; do printf '\\033[33mgot:%s\\033[0m\\n' \"$l\"; done"];

describe('attach reconnects (hello, reconcile, subscribe, resume)', () => {
  it('on the first connect subscribes in the same breath as the reconcile, without waiting for its answer', async () => {
    const id = newSession(home, COLOURFUL);
    const t = new FakeTerminal(100, 30);
    const { conns, connect } = tappedConnector(id);
    let answeredBeforeSubscribe: boolean | null = null;
    const tapped = async () => {
      const conn = await connect();
      const send = conn.send.bind(conn);
      conn.send = (m: ClientMessage) => {
        if (m.type === 'subscribe_terminal') answeredBeforeSubscribe ??= conns[0]!.got.some((g) => g.type === 'reconcile_result');
        send(m);
      };
      return conn;
    };
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect: tapped, input: t.keys, output: t.screen, detachKey: detachKey() });
    await waitFor('first frame', () => t.screen.drawn.includes('green'));
    // One round trip to the first frame, not two: the reconcile's answer could not change the request.
    expect(answeredBeforeSubscribe).toBe(false);
    expect(conns[0]!.sent.slice(0, 2).map((m) => m.type)).toEqual(['reconcile', 'subscribe_terminal']);
    t.type('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
  });

  it('a connection cut mid-attach is back at the first reconnect, resumed without a gap, with the exact screen; typing works after', async () => {
    const id = newSession(home, COLOURFUL);
    const t = new FakeTerminal(100, 30);
    const { conns, connect, attempts } = tappedConnector(id);
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect, input: t.keys, output: t.screen, detachKey: detachKey() }); // the real reconnect delays
    await waitFor('first frame', () => t.screen.drawn.includes('green'));
    t.type('one\r');
    await waitFor('one', () => t.screen.drawn.includes('got:one'));
    // The first connection: reconcile, then subscribe at our size (no cursor yet).
    expect(conns[0]!.sent.slice(0, 2).map((m) => m.type)).toEqual(['reconcile', 'subscribe_terminal']);
    // With the note naming the detach key: the first subscribe only, never a reconnect's (below).
    expect(conns[0]!.sent[1]).toEqual({ type: 'subscribe_terminal', cols: 100, rows: 30, hint: 'Ctrl-\\ detaches · agent-board' });

    const cutAt = Date.now();
    conns[0]!.conn.dispose();
    // The program prints while the attach is away.
    const other = await RawClient.hello(home, id);
    other.send({ type: 'input', data: 'away\n' });
    await waitFor('back', () => conns[1]?.liveAt);
    // Back at the first try, RECONNECT_DELAYS_MS[0] after the cut: how soon that is depends on the
    // machine's load, the number of tries does not.
    expect(attempts()).toBe(2);
    console.log(`back ${conns[1]!.liveAt! - cutAt} ms after the cut`);
    other.close();

    // Reconnect order: reconcile (envelope for this runner), then subscribe from the cursor, at our size.
    const [rec, sub] = conns[1]!.sent as unknown as [Record<string, unknown>, Record<string, unknown>];
    expect(rec).toMatchObject({ type: 'reconcile', viewId: id, instanceId: conns[0]!.conn.hello.generation, seq: 1 });
    const end0 = conns[0]!.got.find((m): m is SnapshotEnd => m.type === 'snapshot_end')!;
    const lastSeen = Math.max(...conns[0]!.got.flatMap((m) => (m.type === 'output' ? [m.seq] : [])));
    expect(sub).toEqual({ type: 'subscribe_terminal', sinceSeq: lastSeen + 1, cols: 100, rows: 30 });
    expect(lastSeen + 1).toBeGreaterThan(end0.nextSeq);
    expect(conns[1]!.got.some((m) => m.type === 'replay_begin')).toBe(true);
    expect(conns[1]!.got.some((m) => m.type === 'snapshot_begin')).toBe(false);
    await waitFor('missed output shown', () => t.screen.drawn.includes('got:away'));
    expect(t.screen.drawn.split('got:one').length - 1).toBe(1); // nothing drawn twice
    const screen = await sameScreen(id, t);
    expect(screen.lines.slice(0, 3)).toEqual(['red green under', 'got:one', 'got:away']);
    expect(screen.cells).toMatch(/\x1b\[[0-9;]*31/); // colours compared too, not just text

    t.type('after\r');
    await waitFor('typed after', () => t.screen.drawn.includes('got:after'));
    expect((await sameScreen(id, t)).lines[3]).toBe('got:after');
    t.type('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
    expect(conns).toHaveLength(2);
  });

  it('after the runner is killed and the session restarted, the attach drops its cursor and takes a fresh snapshot of the new generation', async () => {
    const dir = recorderDir(home);
    const id = newSession(home, recorderArgs(dir));
    await recorderReady(dir);
    const oldHost = readHost(home, id);
    const t = new FakeTerminal(90, 25);
    const { conns, connect } = tappedConnector(id);
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect, input: t.keys, output: t.screen, detachKey: detachKey(), reconnectDelaysMs: Array(100).fill(100) });
    await waitFor('first frame', () => t.screen.drawn.includes('recorder ready'));
    t.type('k1');
    await waitFor('k1 shown', () => t.screen.drawn.includes('rx:"k1"'));

    process.kill(oldHost.runnerPid!, 'SIGKILL');
    await waitFor('runner gone', () => !isPidAlive(oldHost.runnerPid));
    const r = await cliAsync(home, ['restart', id]);
    expect(r.code).toBe(0);
    await recorderReady(dir, 2);
    const host = readHost(home, id);
    expect(host.generation).not.toBe(oldHost.generation);
    const back = await waitFor('reattached', () => conns.find((c) => c.conn.hello.generation === host.generation && c.liveAt), 10_000);

    // The baseline says another generation: no sinceSeq, a snapshot of the new runner at our size.
    const [rec, sub] = back.sent as unknown as [Record<string, unknown>, Record<string, unknown>];
    expect(rec).toMatchObject({ type: 'reconcile', instanceId: host.generation, viewId: id });
    expect(sub).toEqual({ type: 'subscribe_terminal', cols: 90, rows: 25 });
    expect(back.got.find((m) => m.type === 'snapshot_begin')).toMatchObject({ generation: host.generation, cols: 90, rows: 25 });
    expect(back.got.some((m) => m.type === 'replay_begin')).toBe(false);
    await waitFor('new program shown', () => t.screen.drawn.includes(`recorder ready ${host.childPid}`));
    const screen = await sameScreen(id, t);
    expect(screen.lines[0]).toBe(`recorder ready ${host.childPid}`); // the old screen is gone
    expect(screen.lines.join('\n')).not.toContain('k1');

    t.type('k2');
    await waitFor('k2 typed', () => received(dir).includes('k2'));
    expect(receivedByChild(dir).get(host.childPid!)).toBe('k2');
    expect(receivedByChild(dir).get(oldHost.childPid!)).toBe('k1');
    t.type('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
  });
});
