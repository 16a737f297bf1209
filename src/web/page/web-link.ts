/**
 * The page's one WebSocket to the server, kept up: a lost or refused connection is tried again
 * after retryDelay (0.5 s doubling to 10 s), and each fresh one fires onOpen so the page asks again
 * for what it showed (the open session's frame, the room, the unanswered prompts). A connection
 * the server refused before it opened is asked about once (`probe`): a 401 means this browser is
 * not paired (or was revoked), and the page shows the pairing form instead of retrying; so does a
 * close with code 4401 (the device revoked while connected).
 */
import type { Scheduler } from '../../core/clock.js';
import { DisposableStore, Emitter, MutableDisposable, toDisposable, type Disposable, type Event } from '../../core/lifetime.js';
import type { PageMessage, ServerMessage } from '../../core/web/web-protocol.js';
import { retryDelay } from './backoff.js';

/** What the page needs of a WebSocket (the browser's, or a test's). */
export interface SocketLike {
  send(data: string): void;
  close(code?: number): void;
  onopen: (() => void) | null;
  onmessage: ((e: { data: unknown }) => void) | null;
  onclose: ((e: { code: number }) => void) | null;
}

/** The server closes a revoked device's sockets with this code (docs/web.md). */
export const REVOKED_CLOSE_CODE = 4401;

export type LinkState = 'connecting' | 'open' | 'reconnecting' | 'unpaired';

export interface WebLinkDeps {
  connect: () => SocketLike;
  scheduler: Scheduler;
  /** After a connection that never opened: is this browser unpaired (the server answers 401)? */
  probe: () => Promise<boolean>;
}

export class WebLink implements Disposable {
  private readonly store = new DisposableStore();
  private readonly retry = this.store.add(new MutableDisposable());
  private readonly messageEmitter = this.store.add(new Emitter<ServerMessage>());
  private readonly stateEmitter = this.store.add(new Emitter<LinkState>());
  private readonly openEmitter = this.store.add(new Emitter<void>());
  private socket: SocketLike | null = null;
  private attempt = 0;
  private disposed = false;
  state: LinkState = 'connecting';
  readonly onMessage: Event<ServerMessage> = this.messageEmitter.event;
  readonly onState: Event<LinkState> = this.stateEmitter.event;
  /** A connection opened: the page asks again for what it shows. */
  readonly onOpen: Event<void> = this.openEmitter.event;

  constructor(private readonly deps: WebLinkDeps) {
    this.store.add(toDisposable(() => this.drop()));
  }

  /** Connects now (the first time, or after pairing), forgetting any wait. */
  start(): void {
    this.retry.clear();
    this.attempt = 0;
    this.drop();
    this.connect();
  }

  /** Sends one message; false when not connected (the caller keeps what must not be lost). */
  send(msg: PageMessage): boolean {
    if (this.state !== 'open' || !this.socket) return false;
    this.socket.send(JSON.stringify(msg));
    return true;
  }

  private connect(): void {
    if (this.disposed) return;
    let opened = false;
    const s = this.deps.connect();
    this.socket = s;
    s.onopen = () => {
      opened = true;
      this.attempt = 0;
      this.setState('open');
      this.openEmitter.fire();
    };
    s.onmessage = (e) => {
      if (typeof e.data !== 'string') return;
      let msg: ServerMessage;
      try {
        msg = JSON.parse(e.data) as ServerMessage;
      } catch {
        // The server sends only JSON; a frame that is not is dropped, the stream goes on.
        return;
      }
      this.messageEmitter.fire(msg);
    };
    s.onclose = (e) => {
      if (this.socket !== s) return;
      this.socket = null;
      if (e.code === REVOKED_CLOSE_CODE) return this.setState('unpaired');
      if (opened) return this.later();
      this.deps.probe().then(
        (unpaired) => (this.disposed || this.socket ? undefined : unpaired ? this.setState('unpaired') : this.later()),
        () => this.later(),
      );
    };
  }

  private later(): void {
    if (this.disposed) return;
    this.setState('reconnecting');
    const ms = retryDelay(this.attempt++);
    this.retry.value = this.deps.scheduler.setTimeout(() => this.connect(), ms);
  }

  private drop(): void {
    const s = this.socket;
    this.socket = null;
    if (!s) return;
    s.onopen = s.onmessage = s.onclose = null;
    s.close();
  }

  private setState(state: LinkState): void {
    if (this.state === state) return;
    this.state = state;
    this.stateEmitter.fire(state);
  }

  dispose(): void {
    this.disposed = true;
    this.store.dispose();
  }
}
