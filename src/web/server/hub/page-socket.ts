/**
 * One page's WebSocket and everything the hub holds for it, as tmux's server holds a client: the
 * device it belongs to, its terminal bridges (one per open session), the room it follows, its bad
 * frames. Every frame it reads goes through the one gate (./page-messages.ts) to one handler here;
 * what a handler starts (a prompt, a diff) answers on this socket if it is still open, and the
 * page's resend after a reconnect finds it in the hub's PromptSends.
 */
import type { RawData, WebSocket } from 'ws';
import { DisposableStore, Emitter, toDisposable, type Disposable, type Event } from '../../../core/lifetime.js';
import { sessionState } from '../../../core/session-state.js';
import { markMuted } from '../../../core/web/web-rows.js';
import { decodePageMessage, type PageMessage, type ServerMessage } from '../../../core/web/web-protocol.js';
import type { SessionView } from '../../../state/host-store.js';
import type { SessionInput } from '../../../client/feed/board-api.js';
import type { HubDeps, WebDevice } from '../web-types.js';
import { BadFrames } from './bad-frames.js';
import { dispatchPageMessage, gatePageMessage, type PageHandlers } from './page-messages.js';
import { PageRoom } from './page-room.js';
import { PageWire } from './page-wire.js';
import { outcomeLine, type PromptSends } from './prompt-sends.js';
import { TerminalBridge } from './terminal-bridge.js';

/** WebSocket close codes the page reads: too many bad frames (policy violation), and a device revoked. */
export const CLOSE_BAD_FRAMES = 1008;
export const CLOSE_REVOKED = 4401;

type Msg<K extends PageMessage['t']> = Extract<PageMessage, { t: K }>;
type RowsMessage = Extract<ServerMessage, { t: 'rows' }>;

export interface PageSocketDeps {
  hub: HubDeps;
  sends: PromptSends;
  /** The list as it is now, muted for nobody (the hub builds it once per change). */
  rows(): RowsMessage;
  /** Something went wrong that only the server's log needs (a handler that threw). */
  report(line: string): void;
}

export class PageSocket implements PageHandlers, Disposable {
  private readonly store = new DisposableStore();
  private readonly wire: PageWire;
  private readonly bridges = new Map<string, TerminalBridge>();
  /**
   * Keys connections for answers to sessions this page has not opened, one per session, kept until
   * the socket closes (or the connection ends): closed at once, the digit queued while it connects
   * would be dropped, and the board keeps its own open the same way (session-keys.ts).
   */
  private readonly answerInputs = new Map<string, SessionInput>();
  private readonly chatRoom: PageRoom;
  private readonly bad: BadFrames;
  private readonly closes = new Emitter<void>();
  /** The state was released (the socket closed, or we closed it). */
  readonly onClose: Event<void> = this.closes.event;
  /** A `rows` frame waits for a congested socket to drain (only the newest list is sent then). */
  private rowsOwed = false;

  constructor(
    private readonly ws: WebSocket,
    readonly device: WebDevice,
    private readonly d: PageSocketDeps,
  ) {
    this.wire = this.store.add(new PageWire(ws));
    this.chatRoom = this.store.add(new PageRoom(d.hub, this.wire));
    this.bad = new BadFrames(d.hub.time.clock);
    this.store.add(
      toDisposable(() => {
        for (const b of this.bridges.values()) b.dispose();
        this.bridges.clear();
        for (const i of this.answerInputs.values()) i.close();
        this.answerInputs.clear();
      }),
    );
    this.store.add(this.wire.onDrain(() => this.rowsOwed && this.sendRows()));
    const onMessage = (data: RawData, isBinary: boolean): void => this.read(data, isBinary);
    const onClose = (): void => this.dispose();
    ws.on('message', onMessage);
    ws.on('close', onClose);
    // Kept for the socket's whole life, even after we let it go (a revoke, a flood): an `error`
    // event with no listener would throw out of the server. The close follows it.
    ws.on('error', (err: Error) => d.report(`page ${device.name}: ${err.message}`));
    this.store.add(
      toDisposable(() => {
        ws.off('message', onMessage);
        ws.off('close', onClose);
      }),
    );
    const h = d.hub;
    this.wire.send({ t: 'welcome', device: device.id, name: device.name, readOnly: device.readOnly, quiet: h.push.isQuiet(device.id), vapidKey: h.push.publicKey, version: h.version });
    this.sendRows();
  }

  /** The list changed: this device's rows (its mutes marked); a congested page gets only the newest, once it drains. */
  sendRows(): void {
    if (this.wire.congested) {
      this.rowsOwed = true;
      return;
    }
    this.rowsOwed = false;
    const r = this.d.rows();
    this.wire.send({ ...r, rows: markMuted(r.rows, (id) => this.d.hub.push.isMuted(this.device.id, id)) });
  }

  /** The sessions changed: each open terminal follows its session's size. */
  sessionsChanged(find: (id: string) => SessionView | undefined): void {
    for (const b of this.bridges.values()) {
      const s = find(b.id);
      if (s) b.sessionSize(s.cols, s.rows);
    }
  }

  /** Closes the socket with `code` and releases everything at once (a revoke, a flood). */
  close(code: number, reason: string): void {
    this.wire.close(code, reason);
    this.dispose();
  }

  dispose(): void {
    if (this.store.isDisposed) return;
    this.store.dispose();
    try {
      this.closes.fire();
    } finally {
      this.closes.dispose();
    }
  }

  // ---- the handlers (./page-messages.ts's table says what each needs) ----

  open(m: Msg<'open'>, s: SessionView): void {
    this.bridges.get(m.id)?.dispose(); // opened again (the page came back to it): a fresh frame
    this.bridges.set(m.id, new TerminalBridge({ session: s, readOnly: this.device.readOnly, connect: (v, o) => this.d.hub.connect(v, o), scheduler: this.d.hub.time.scheduler, wire: this.wire }));
  }

  closeTerminal(m: Msg<'close'>): void {
    this.bridges.get(m.id)?.close();
    this.bridges.delete(m.id);
  }

  keys(m: Msg<'keys'>, s: SessionView): void {
    const b = this.bridgeFor(m.t, s);
    if (b && !b.keys(m.data)) this.error(`the keys were not typed: the link to ${s.name} is down`);
  }

  resize(m: Msg<'resize'>, s: SessionView): void {
    const b = this.bridgeFor(m.t, s);
    if (b && !b.resize(m.cols, m.rows)) this.error(`${s.name} was not resized: the link to it is down`);
  }

  send(m: Msg<'send'>): void {
    const find = this.finder();
    for (const id of m.ids) {
      const s = find(id);
      if (!s) {
        this.wire.send({ t: 'sent', cmd: m.cmd, id, status: 'not_typed', line: `no session ${JSON.stringify(id.slice(0, 80))}; nothing was typed` });
        continue;
      }
      void this.d.sends.send('prompt', m.cmd, s, m.text).then((o) => this.wire.send({ t: 'sent', cmd: m.cmd, id, status: o.status, line: outcomeLine(s.name, o) }));
    }
  }

  answer(m: Msg<'answer'>, s: SessionView): void {
    // What 1-9 do on the board (src/ui/io-commands.ts answerDialog): only a waiting session is asked something.
    if (sessionState(s) !== 'waiting') return this.error(`${s.name} is not waiting for an answer (it is ${sessionState(s)})`);
    const digit = String(m.n);
    const b = this.bridges.get(s.id);
    if (b) {
      if (!b.keys(digit)) return this.error(`${digit} was not typed: the link to ${s.name} is down`);
    } else {
      let input = this.answerInputs.get(s.id);
      if (!input || input.ended) {
        const opened = this.d.hub.actions.openInput(s);
        this.answerInputs.set(s.id, opened);
        opened.onEnd(() => this.answerInputs.get(s.id) === opened && this.answerInputs.delete(s.id));
        input = opened;
      }
      input.write(digit);
    }
    this.wire.send({ t: 'ok', line: `typed ${digit} into ${s.name}` });
  }

  diff(m: Msg<'diff'>, s: SessionView): void {
    this.d.hub.actions.diff(s).then(
      (diff) => this.wire.send({ t: 'diff', id: s.id, diff }),
      (err: unknown) => this.error(lineOf(err), m.ref),
    );
  }

  comment(m: Msg<'comment'>, s: SessionView): void {
    void this.d.sends.send('comment', m.cmd, s, m.text).then((o) => {
      if (o.status === 'applied' || o.status === 'accepted') this.wire.send({ t: 'ok', ref: m.cmd, line: `review comments sent to ${s.name}` });
      else this.error(outcomeLine(s.name, o), m.cmd);
    });
  }

  room(m: Msg<'room'>): void {
    this.chatRoom.follow(m.room);
  }

  post(m: Msg<'post'>): void {
    this.d.hub.actions.postChat(m.room, m.text).then(
      (r) => this.wire.send({ t: 'ok', ref: m.ref, line: `posted #${r.id} to ${m.room}${r.paused ? ' (its wakes are paused)' : ''}` }),
      (err: unknown) => this.error(lineOf(err), m.ref),
    );
  }

  subscribe(m: Msg<'subscribe'>): void {
    this.d.hub.push.subscribe(this.device.id, m.sub);
    this.wire.send({ t: 'ok', line: 'notifications on for this browser' });
  }

  mute(m: Msg<'mute'>, s: SessionView): void {
    this.d.hub.push.mute(this.device.id, s.id, m.muted);
    this.sendRows();
  }

  quiet(m: Msg<'quiet'>): void {
    this.d.hub.push.quiet(this.device.id, m.quiet);
    this.wire.send({ t: 'ok', line: m.quiet ? 'quiet: no notifications on this device' : 'notifications back on for this device' });
  }

  // ---- reading ----

  private read(data: RawData, isBinary: boolean): void {
    if (this.store.isDisposed) return;
    if (isBinary) return this.badFrame('a frame must be JSON text');
    const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    const decoded = decodePageMessage(buf.toString('utf8'), buf.length);
    if (!decoded.ok) return this.badFrame(decoded.line, decoded.ref);
    const m = decoded.msg;
    const gate = gatePageMessage(m, this.device, this.finder());
    if (!gate.ok) return this.badFrame(gate.line, refOf(m));
    try {
      dispatchPageMessage(this, m, gate.session);
    } catch (err) {
      // A bug in a handler: the page hears one line, the log the detail, and the socket goes on.
      this.d.report(`page ${this.device.name}: ${m.t} threw: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      this.error(`${m.t} failed: ${lineOf(err)}`, refOf(m));
    }
  }

  /** One `error` frame; past the flood bound the socket is closed (the others go on). */
  private badFrame(line: string, ref?: string): void {
    this.error(line, ref);
    if (this.bad.note()) this.close(CLOSE_BAD_FRAMES, 'too many bad frames');
  }

  private error(line: string, ref?: string): void {
    this.wire.send(ref === undefined ? { t: 'error', line } : { t: 'error', ref, line });
  }

  /** The bridge `keys` or `resize` goes through: the page opens the session first. */
  private bridgeFor(t: string, s: SessionView): TerminalBridge | null {
    const b = this.bridges.get(s.id);
    if (!b) this.badFrame(`${t}: open ${s.name} first`);
    return b ?? null;
  }

  private finder(): (id: string) => SessionView | undefined {
    const sessions = this.d.hub.feed.sessions;
    return (id) => sessions.find((s) => s.id === id);
  }
}

function refOf(m: PageMessage): string | undefined {
  return 'cmd' in m ? m.cmd : 'ref' in m ? m.ref : undefined;
}

function lineOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] || 'failed';
}
