/**
 * The full-screen attach client: the user's terminal on a session until the detach key, the exit,
 * or the runner's loss. Where it is goes through one table (src/core/attach-states.ts, held by
 * ./attach-machine.ts): connecting, subscribing, live, handing back, reconnecting, ended. Its line
 * to the runner is a RunnerLink (src/client/link/runner-link.ts): the first connection is the
 * caller's (adopted), and a connection that drops is tried again along ATTACH_RECONNECT.
 */
import type { AttachState } from '../../core/attach-states.js';
import type { ClientMessage } from '../../core/protocol/client-messages.js';
import { DisposableStore, MutableDisposable, toDisposable, type Disposable, type Event } from '../../core/lifetime.js';
import { findDetachKey } from '../../core/terminal/detach-key.js';
import { AltScreenTracker } from '../../core/terminal/terminal-restore.js';
import { kindNamed } from '../../state/kind-files.js';
import { ControlChannel } from '../send/control-channel.js';
import { JiggleChain } from './jiggle-chain.js';
import type { RunnerConnection } from '../link/connection.js';
import { ATTACH_RECONNECT } from '../link/retry-schedule.js';
import type { LinkState } from '../link/link-types.js';
import { RunnerLink } from '../link/runner-link.js';
import { DirectSide } from './attach-direct.js';
import { attachHintText } from './attach-hint.js';
import { AttachKeys } from './attach-keys.js';
import { AttachMachine, type AttachChange } from './attach-machine.js';
import { OutputBatch } from './attach-output.js';
import { AttachStream } from './attach-stream.js';
import { SessionExitedError, type AttachOptions, type AttachResult } from './attach-types.js';

/** How long a (re)connecting attach waits for the reconcile baseline before it takes a fresh snapshot anyway. */
export const ATTACH_RECONCILE_TIMEOUT_MS = 1000;

export class AttachClient implements Disposable {
  private readonly machine = new AttachMachine();
  /** Every move of the attach (connecting, subscribing, live, handing-back, reconnecting, ended). */
  readonly onStateChange: Event<AttachChange> = this.machine.onChange;
  private readonly store = new DisposableStore();
  private readonly link: RunnerLink<RunnerConnection>;
  /** Who reads the keys: us, or the runner from the terminal itself (direct input, ./attach-keys.ts). */
  private readonly keys: AttachKeys;
  /** Direct output: the runner writes the output to our terminal itself (./attach-direct.ts). */
  private readonly direct: DirectSide;
  /** Output to the terminal, a batch at a time (./attach-output.ts). */
  private readonly out: OutputBatch;
  /** The runner's messages on the terminal, and where the stream is (./attach-stream.ts). */
  private readonly stream: AttachStream;
  private readonly jiggle = new MutableDisposable<JiggleChain>();
  /** Enveloped commands on the current connection; null while there is none. */
  private channel: ControlChannel | null = null;
  /** The first subscribe, written with the first connection's hello (AttachOptions.firstConnect). */
  private prepared: ClientMessage | null = null;
  /** The note naming the detach key is asked for on the first subscribe only: a reconnect is no news. */
  private hintAsked = false;
  /** Refused moves with no log to go to: written on the terminal once it is given back. */
  private readonly untold: string[] = [];
  private readonly wasRaw: boolean;
  private finish!: (r: AttachResult) => void;
  private readonly done = new Promise<AttachResult>((r) => (this.finish = r));

  constructor(private readonly o: AttachOptions) {
    const { input, output, terminal, log, onDirect, scheduler, detachKey, readOnly } = o;
    this.wasRaw = input.isRaw ?? false;
    this.keys = new AttachKeys(input, (chunk) => this.onKeys(chunk));
    const settled = () => this.jiggle.value?.stop();
    const alt = new AltScreenTracker();
    this.direct = new DirectSide({ terminal, log, onDirect, alt, settled, scheduler, keys: this.keys, detachKey, readOnly });
    this.out = new OutputBatch(output, () => this.link.current, () => this.machine.state === 'ended');
    this.stream = this.store.add(new AttachStream(alt, this.out, this.direct));
    this.link = new RunnerLink<RunnerConnection>({
      connect: () => o.connect(),
      schedule: o.reconnectDelaysMs ? { delaysMs: o.reconnectDelaysMs, afterLast: 'give-up' } : ATTACH_RECONNECT,
      scheduler,
    });
    // Not in the store: the machine outlives the end on purpose, so a move refused after it (a bug) is still told.
    this.machine.onIllegalMove((message) => this.tell(message));
    this.store.add(this.link.onOpen(({ conn, held }) => this.connected(conn, held)));
    this.store.add(this.link.onMessage((m) => this.stream.handle(m)));
    this.store.add(this.stream.onFrame(() => this.frame()));
    this.store.add(this.stream.onOutput((data) => this.jiggle.value?.feed(data)));
    this.store.add(this.stream.onEnd((r) => this.end(r)));
    this.store.add(this.link.onStateChange((s) => this.linkChanged(s)));
    const sendSize = () => this.sendSize();
    output.on('resize', sendSize);
    this.store.add(toDisposable(() => output.off('resize', sendSize)));
    for (const d of [this.link, this.jiggle]) this.store.add(d);
  }

  get state(): AttachState {
    return this.machine.state;
  }

  /**
   * Connects and runs until the attach ends. The first connection's failure is thrown, the
   * terminal left as it was (nothing was drawn), for the caller to say why.
   */
  async run(): Promise<AttachResult> {
    const { input } = this.o;
    let first: RunnerConnection;
    // Pipelined only when the stream holds no keys: the request's hold() would give them out before there is a connection.
    if (this.o.firstConnect && !((input.readableLength ?? 0) > 0)) {
      this.raw();
      const subscribe = { type: 'subscribe_terminal', ...(this.o.readOnly ? {} : this.size()), ...this.direct.request(), ...this.hint() } as const;
      try {
        first = await this.o.firstConnect([subscribe]);
      } catch (err) {
        // Not reached: the terminal as it was (nothing was drawn), and the caller says why.
        this.abandon();
        this.keys.dispose();
        input.setRawMode?.(this.wasRaw);
        input.pause();
        throw err;
      }
      this.prepared = subscribe;
    } else {
      try {
        first = await this.o.connect();
      } catch (err) {
        this.abandon(); // the terminal was not touched yet
        throw err;
      }
      this.raw();
    }
    this.link.adopt(first);
    if (this.machine.state !== 'ended') this.keys.go();
    return this.done;
  }

  /** Ends the attach now, as a detach would (nothing when it has ended). */
  dispose(): void {
    if (this.machine.state !== 'ended') this.end({ reason: 'detached' });
  }

  /** Raw before the first subscribe: with direct input the runner may read the keys as soon as it has it. */
  private raw(): void {
    this.o.input.setEncoding?.('utf8');
    this.o.input.setRawMode?.(true);
    this.keys.listen();
  }

  /** The first connection never came: ended, holding nothing. */
  private abandon(): void {
    this.machine.move('end');
    this.store.dispose();
  }

  /**
   * A connection is up. The binding order on every (re)connect: hello (done by the connect),
   * reconcile, subscribe_terminal, then resume. A changed generation means a new runner: its seqs
   * mean nothing to us, so the cursor goes and a fresh snapshot comes. Our size rides on the
   * subscription, so the first frame is drawn at it.
   */
  private connected(c: RunnerConnection, held: DisposableStore): void {
    if (!this.machine.move('connected').ok) return;
    const ch = (this.channel = held.add(new ControlChannel(c)));
    // A stand-in connection without it (a test's fake) keeps the microtask flush.
    if (c.onBatchEnd) held.add(c.onBatchEnd(this.out.flush));
    const reconciled = ch.reconcile([], ATTACH_RECONCILE_TIMEOUT_MS);
    const prepared = this.prepared;
    if (prepared) {
      this.prepared = null;
      if (!c.pipelined?.includes(prepared)) c.send(prepared);
      this.stream.cursor.forget(); // its answers (the frame) come with the connection, after this: the link hands them on
      return;
    }
    const size = this.o.readOnly ? {} : this.size();
    // Asked for on every subscribe; the runner answers direct_on or direct_refused before the frame.
    // Direct input: the keys our stream holds go out first, and may hold the detach key.
    const want = this.direct.request();
    if (this.machine.state === 'ended') return;
    if (!this.stream.cursor.resumable) {
      // Nothing to resume from (the first connect, or a cursor we never had): the baseline cannot
      // change what we ask for, so the subscription goes in the same write as the reconcile
      // instead of a round trip later. The first frame is that round trip sooner.
      c.send({ type: 'subscribe_terminal', ...size, ...want, ...this.hint() });
      this.stream.cursor.forget();
      return;
    }
    void reconciled.then((baseline) => {
      if (!this.link.isCurrent(c)) return; // dropped or ended meanwhile
      const sinceSeq = this.stream.cursor.resumeFrom(baseline, c.hello.generation);
      c.send({ type: 'subscribe_terminal', ...(sinceSeq !== null ? { sinceSeq } : {}), ...size, ...want });
    });
  }

  /** The line went down: tried again along the schedule, or the attach ends. */
  private linkChanged(s: LinkState): void {
    if (s.kind !== 'waiting' && s.kind !== 'given-up') return;
    const f = s.last;
    if (f.cause === 'closed') {
      this.channel = null;
      this.direct.stopped(); // it stopped writing when it went (or saw us go), maybe in the middle of a sequence
      if (this.machine.state === 'handing-back') return this.end({ reason: 'detached' });
      if (!this.machine.move('dropped').ok) return;
    }
    // The session ended while we were away: its exit, not a lost runner.
    if (f.error instanceof SessionExitedError) return this.end({ reason: 'exited', code: f.error.code, signal: f.error.signal, ...(f.error.killed ? { killed: f.error.killed } : {}) });
    if (s.kind === 'given-up') this.end({ reason: 'lost', message: 'lost the connection to the session and could not reconnect' });
  }

  /** A frame of the subscription: the first makes the stream live; a later one (a laggard's, the note's) is no new watcher. */
  private frame(): void {
    const from = this.machine.state;
    if (this.machine.move('frame').ok && from === 'subscribing') this.goneLive();
  }

  /** The stream is live: make the program redraw for the watcher it now has (a redraw after a jiggle, src/client/attach/jiggle-chain.ts). */
  private goneLive(): void {
    const conn = this.link.current;
    if (this.o.readOnly || !conn) return;
    // The frame goes to the terminal before the kind's rules are read (a cold read costs ms).
    this.out.flush();
    const kind = kindNamed(conn.hello.host.foregroundAgent ?? conn.hello.host.agent);
    const ch = this.channel;
    const chain = new JiggleChain(kind.settleMarkers, () => ch?.send({ type: 'redraw' }), this.o.scheduler);
    this.jiggle.value = chain;
    chain.start();
  }

  private size(): { cols: number; rows: number } {
    return { cols: this.o.output.columns ?? 80, rows: this.o.output.rows ?? 24 };
  }

  private hint(): { hint?: string } {
    if (this.hintAsked || this.o.hint === false) return {};
    this.hintAsked = true;
    return { hint: attachHintText(this.o.detachKey, this.o.readOnly === true) };
  }

  private sendSize(): void {
    if (this.o.readOnly || !this.channel) return;
    this.channel.send({ type: 'resize', ...this.size() }); // latest wins: each resize is a new command
  }

  private onKeys(chunk: string): void {
    const hit = findDetachKey(this.o.detachKey, chunk);
    const before = hit ? chunk.slice(0, hit.index) : chunk;
    // Keystrokes are fire-and-forget: typed while the connection is down, they are dropped, never replayed.
    if (before && !this.o.readOnly) this.channel?.send({ type: 'input', data: before });
    if (!hit) return;
    this.channel?.send({ type: 'detach' });
    if (this.direct.active && this.channel) {
      // The terminal is restored once the runner has stopped writing to it (direct_off).
      this.keys.dispose();
      if (this.machine.move('hand-back').ok) this.direct.handBack(() => this.end({ reason: 'detached' }));
      else this.end({ reason: 'detached' });
    } else {
      this.end({ reason: 'detached' });
    }
    // Keys typed on after the detach key, in the same read, were not for the session.
    const after = chunk.slice(hit.index + hit.length);
    if (after) this.o.input.unshift?.(after);
  }

  /** Gives the terminal back as it was, closes the line the orderly way (our detach goes first), and resolves run(). */
  private end(r: AttachResult): void {
    this.out.flush(); // what the last read brought, before the restore (nothing once ended)
    if (!this.machine.move('end').ok) return;
    const { input, output } = this.o;
    this.jiggle.clear();
    this.direct.dispose();
    this.keys.dispose();
    this.stream.restore((data) => output.write(data));
    if (input.setRawMode) input.setRawMode(this.wasRaw);
    input.pause();
    this.channel = null;
    this.link.close();
    this.store.dispose();
    for (const line of this.untold.splice(0)) output.write(`agent-board: ${line}\r\n`);
    this.finish(r);
  }

  /** A refused move: the board's log, else the terminal once it is ours no more. */
  private tell(message: string): void {
    if (this.o.log) this.o.log(message);
    else if (this.machine.state === 'ended') this.o.output.write(`agent-board: ${message}\r\n`);
    else this.untold.push(message);
  }
}
