/** The full-screen attach client: the user's terminal on a session until the detach key, the exit, or the runner's loss. */
import { findDetachKey, type DetachKey } from '../../core/terminal/detach-key.js';
import { kindNamed } from '../../state/kind-files.js';
import type { ClientMessage } from '../../core/protocol/client-messages.js';
import type { RunnerMessage } from '../../core/protocol/runner-messages.js';
import { JiggleChain } from '../jiggle-chain.js';
import { DisposableStore, MutableDisposable } from '../../core/lifetime.js';
import { AltScreenTracker, terminalRestoreSequence } from '../../core/terminal/terminal-restore.js';
import { sleep } from '../client-time.js';
import type { RunnerConnection } from '../link/connection.js';
import { ControlChannel } from '../control-channel.js';
import { DirectSide } from './attach-direct.js';
import { AttachKeys } from './attach-keys.js';
import { OutputBatch } from './attach-output.js';
import { SessionExitedError, type AttachOptions, type AttachResult } from './attach-types.js';

/** The note over the first frame: how to leave. */
export function attachHintText(key: DetachKey, readOnly: boolean): string {
  return `${readOnly ? 'read-only · ' : ''}${key.label} detaches · agent-board`;
}

/** Whether attaches show the note: AGENT_BOARD_ATTACH_HINT=0 (or off, no, false) turns it off. */
export function attachHintWanted(env: Readonly<Record<string, string | undefined>>): boolean {
  return !/^(0|off|no|false)$/i.test(env.AGENT_BOARD_ATTACH_HINT ?? '');
}

export { SessionExitedError, type AttachInput, type AttachOptions, type AttachOutput, type AttachResult } from './attach-types.js';

/** How long a (re)connecting attach waits for the reconcile baseline before it takes a fresh snapshot anyway. */
export const ATTACH_RECONCILE_TIMEOUT_MS = 1000;

/** Waits between reconnect attempts when the runner goes away mid-attach. */
export const RECONNECT_DELAYS_MS = [100, 250, 500, 1000, 2000];

/**
 * Full-screen attach: the user's terminal shows the session and types into it
 * until the detach key, the session's exit, or the runner's loss. The first
 * frame is the runner's snapshot at our size; after that, live output. On the
 * way out the terminal is given back as it was before the program touched it.
 */
export async function runAttach(opts: AttachOptions): Promise<AttachResult> {
  const { input, output } = opts;
  const alt = new AltScreenTracker();
  let conn: RunnerConnection | null = null;
  let channel: ControlChannel | null = null;
  let generation: string | null = null;
  let nextSeq: number | null = null;
  let finish!: (r: AttachResult) => void;
  const done = new Promise<AttachResult>((r) => (finish = r));
  let finished = false;
  let jiggle: JiggleChain | null = null;
  /** Who reads the keys: us, or the runner from the terminal itself (direct input, src/client/attach/attach-keys.ts). */
  const keys = new AttachKeys(input, (chunk) => onKeys(chunk));
  /** Direct output: the runner writes the output to our terminal itself (src/client/attach/attach-direct.ts). */
  const { terminal, log, onDirect, scheduler, detachKey, readOnly } = opts;
  const direct = new DirectSide({ terminal, log, onDirect, alt, settled: () => jiggle?.stop(), scheduler, keys, detachKey, readOnly });
  /** The listeners on the current connection: replaced on every (re)connect, released at the end. */
  const listening = new MutableDisposable<DisposableStore>();

  /** Output to the terminal, a batch at a time (src/client/attach/attach-output.ts). */
  const out = new OutputBatch(output, () => conn, () => finished);
  const flushOut = out.flush;
  const show = (data: string) => {
    alt.feed(data);
    out.show(data);
  };

  const onMessage = (m: RunnerMessage) => {
    switch (m.type) {
      case 'snapshot_begin':
        generation = m.generation;
        return;
      case 'replay_begin':
        generation = m.generation;
        firstLive();
        return;
      case 'snapshot_screen':
        // Whatever the terminal shows now (an earlier frame, the user's shell) goes first.
        show(direct.cancel() + terminalRestoreSequence(alt.active) + '\x1b[H\x1b[2J' + m.data);
        return;
      case 'snapshot_end':
        // Direct: the runner wrote the frame and what follows; we cannot resume from a seq we never saw.
        if (!direct.active) nextSeq = m.nextSeq;
        firstLive();
        return;
      case 'output':
        if (direct.active) return; // never sent while direct
        if (nextSeq !== null && m.seq < nextSeq) return; // already shown (replay overlap)
        nextSeq = m.seq + 1;
        jiggle?.feed(m.data);
        show(m.data);
        return;
      case 'exit':
        end({ reason: 'exited', code: m.code, signal: m.signal, ...(m.killed ? { killed: m.killed } : {}) });
        return;
      case 'bye':
        if (m.reason === 'detach') end({ reason: 'detached' });
        return;
      case 'direct_on':
        nextSeq = null; // nothing to resume from: we never see the seqs
        direct.handle(m);
        return;
      default:
        direct.handle(m);
        return;
    }
  };

  /**
   * Whether the current subscribe has gone live yet: a later frame on the same subscribe (the
   * runner's own, for a client that fell behind or for the attach's note) is no new watcher.
   */
  let subscribed = false;
  const firstLive = () => {
    if (!subscribed) return;
    subscribed = false;
    goneLive();
  };

  /** The stream is live: make the program redraw for the watcher it now has (a redraw after a jiggle, src/client/jiggle-chain.ts). */
  const goneLive = () => {
    if (opts.readOnly || !conn) return;
    // The frame goes to the terminal before the kind's rules are read (a cold read costs ms).
    flushOut();
    const kind = kindNamed(conn.hello.host.foregroundAgent ?? conn.hello.host.agent);
    jiggle?.dispose();
    const ch = channel;
    jiggle = new JiggleChain(kind.settleMarkers, () => ch?.send({ type: 'redraw' }), opts.scheduler);
    jiggle.start();
  };

  const ourSize = () => ({ cols: output.columns ?? 80, rows: output.rows ?? 24 });
  /** The note naming the detach key, asked for on the first subscribe only: a reconnect is no news. */
  let hintAsked = false;
  const hint = (): { hint?: string } => {
    if (hintAsked || opts.hint === false) return {};
    hintAsked = true;
    return { hint: attachHintText(opts.detachKey, opts.readOnly === true) };
  };
  const sendSize = () => {
    if (opts.readOnly || !channel) return;
    channel.send({ type: 'resize', ...ourSize() }); // latest wins: each resize is a new command
  };

  const onKeys = (chunk: string) => {
    const hit = findDetachKey(opts.detachKey, chunk);
    const before = hit ? chunk.slice(0, hit.index) : chunk;
    // Keystrokes are fire-and-forget: typed while the connection is down, they are dropped, never replayed.
    if (before && !opts.readOnly) channel?.send({ type: 'input', data: before });
    if (hit) {
      channel?.send({ type: 'detach' });
      if (direct.active && channel) {
        // The terminal is restored once the runner has stopped writing to it (direct_off).
        keys.dispose();
        direct.handBack(() => end({ reason: 'detached' }));
      } else {
        end({ reason: 'detached' });
      }
      // Keys typed on after the detach key, in the same read, were not for the session.
      const after = chunk.slice(hit.index + hit.length);
      if (after) input.unshift?.(after);
    }
  };

  /**
   * The binding order on every (re)connect: hello (done by connect), reconcile,
   * subscribe_terminal, then resume. A changed generation means a new runner:
   * its seqs mean nothing to us, so the cursor goes and a fresh snapshot comes.
   * Our size rides on the subscription, so the first frame is drawn at it.
   */
  const subscribe = async (c: RunnerConnection, prepared?: ClientMessage) => {
    conn = c;
    channel?.dispose();
    // What came in the hello's read (the pipelined subscribe's answers) is ours: taken before the channel listens.
    const early: RunnerMessage[] = [];
    const taking = c.onMessage((m) => early.push(m));
    const ch = (channel = new ControlChannel(c));
    taking.dispose();
    const store = (listening.value = new DisposableStore());
    store.add(c.onMessage(onMessage));
    // A stand-in connection without it (a test's fake) keeps the microtask flush.
    if (c.onBatchEnd) store.add(c.onBatchEnd(flushOut));
    store.add(
      c.onClose(() => {
        if (finished || conn !== c) return;
        direct.stopped(); // it stopped writing when it went (or saw us go), maybe in the middle of a sequence
        if (direct.handingBack) end({ reason: 'detached' });
        else void reconnect();
      }),
    );
    const reconciled = ch.reconcile([], ATTACH_RECONCILE_TIMEOUT_MS);
    subscribed = true;
    if (prepared) {
      if (!c.pipelined?.includes(prepared)) c.send(prepared);
      nextSeq = null;
      for (const m of early) onMessage(m);
      return;
    }
    const size = opts.readOnly ? {} : ourSize();
    // Asked for on every subscribe; the runner answers direct_on or direct_refused before the frame.
    // Direct input: the keys our stream holds go out first, and may hold the detach key.
    const want = direct.request();
    if (finished) return;
    if (generation === null || nextSeq === null) {
      // Nothing to resume from (the first connect, or a cursor we never had): the baseline
      // cannot change what we ask for, so the subscription goes in the same write as the
      // reconcile instead of a round trip later. The first frame is that round trip sooner.
      c.send({ type: 'subscribe_terminal', ...size, ...want, ...hint() });
      nextSeq = null;
      return;
    }
    const baseline = await reconciled;
    if (finished || conn !== c) return;
    const gen = baseline?.generation ?? c.hello.generation;
    const resume = gen === generation && baseline !== null && baseline.terminalCursor.lastSeq >= nextSeq - 1;
    c.send(resume ? { type: 'subscribe_terminal', sinceSeq: nextSeq, ...size, ...want } : { type: 'subscribe_terminal', ...size, ...want });
    if (!resume) nextSeq = null;
  };

  const reconnect = async () => {
    for (const delay of opts.reconnectDelaysMs ?? RECONNECT_DELAYS_MS) {
      await sleep(opts.scheduler, delay);
      if (finished) return;
      try {
        await subscribe(await opts.connect());
        return;
      } catch (err) {
        if (err instanceof SessionExitedError) {
          end({ reason: 'exited', code: err.code, signal: err.signal, ...(err.killed ? { killed: err.killed } : {}) });
          return;
        }
        // try again
      }
    }
    end({ reason: 'lost', message: 'lost the connection to the session and could not reconnect' });
  };

  function end(r: AttachResult) {
    if (finished) return;
    flushOut();
    finished = true;
    jiggle?.dispose();
    direct.dispose();
    keys.dispose();
    output.off('resize', sendSize);
    // Direct output still on here (the runner did not answer in time) cannot be trusted to have stopped cleanly.
    direct.stopped();
    output.write(direct.cancel() + terminalRestoreSequence(alt.active));
    if (input.setRawMode) input.setRawMode(wasRaw);
    input.pause();
    const c = conn;
    conn = null;
    listening.dispose();
    channel?.dispose();
    channel = null;
    c?.close();
    finish(r);
  }

  const wasRaw = input.isRaw ?? false;
  const raw = () => {
    // Raw before the first subscribe: with direct input the runner may read the keys as soon as it has it.
    input.setEncoding?.('utf8');
    input.setRawMode?.(true);
    keys.listen();
  };
  // Pipelined only when the stream holds no keys: the request's hold() would give them out before there is a connection.
  if (opts.firstConnect && !((input.readableLength ?? 0) > 0)) {
    raw();
    const first = { type: 'subscribe_terminal', ...(opts.readOnly ? {} : ourSize()), ...direct.request(), ...hint() } as const;
    try {
      await subscribe(await opts.firstConnect([first]), first);
    } catch (err) {
      // Not reached: the terminal as it was (nothing was drawn), and the caller says why.
      keys.dispose();
      input.setRawMode?.(wasRaw);
      input.pause();
      throw err;
    }
  } else {
    const first = await opts.connect();
    raw();
    await subscribe(first);
  }
  keys.go();
  output.on('resize', sendSize);
  return done;
}
