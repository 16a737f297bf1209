/**
 * The page's state and what the user does, over the WebLink: it follows the view in the URL (a
 * session's terminal, its diff, a room), asks again for it on every fresh connection, and keeps
 * each prompt until the server answers it (resent with its command id after a reconnect: typed
 * once). The terminal's frames and output go to the terminal view (attachTerminal), straight to xterm.
 */
import type { Clock, Scheduler } from '../../core/clock.js';
import { commentPrompt, type CommentTarget } from '../../core/board/diff-view.js';
import { DisposableStore, Emitter, type Disposable, type Event } from '../../core/lifetime.js';
import { MAX_KEYS_CHARS, type PageMessage, type PushSubscriptionJson, type ServerMessage } from '../../core/web/web-protocol.js';
import { sameRoute, type Route } from './hash-route.js';
import { addSend, applyServer, initialState, promptTargets, type PageState } from './page-state.js';
import { PendingSends } from './pending-sends.js';
import type { LinkState } from './web-link.js';

/** Terminal output held for a view not up yet; past this a fresh frame is asked for instead. */
const MAX_HELD_CHARS = 4 * 1024 * 1024;
/**
 * While a session's terminal is on screen, the rest of the page re-renders for the server's news
 * at most this often (setFromServer). Each re-render is a frame the browser must make beside the
 * terminal's: a row's update for every keystroke's echo (its last line, its time) made the next
 * echo's frame late, about one in ten by a whole frame (docs/performance.md). Ten a second is
 * still live for a list the user glances at beside the session they type into.
 */
const BESIDE_TERMINAL_RENDER_MS = 100;

export type TerminalEvent = Extract<ServerMessage, { t: 'frame' } | { t: 'out' } | { t: 'size' }>;

/** What the model needs of the link (WebLink, or a test's). */
export interface LinkLike {
  readonly state: LinkState;
  send(msg: PageMessage): boolean;
  readonly onMessage: Event<ServerMessage>;
  readonly onState: Event<LinkState>;
  readonly onOpen: Event<void>;
}

export interface PageModelDeps {
  link: LinkLike;
  clock: Clock;
  newCmdId: () => string;
  route: Route;
  scheduler: Scheduler;
}

/** `data` cut into frames the server takes, never between the two halves of a surrogate pair. */
export function keyChunks(data: string, max: number = MAX_KEYS_CHARS): string[] {
  const out: string[] = [];
  let at = 0;
  while (at < data.length) {
    let end = Math.min(data.length, at + max);
    const last = data.charCodeAt(end - 1);
    if (end < data.length && last >= 0xd800 && last <= 0xdbff) end--;
    out.push(data.slice(at, end));
    at = end;
  }
  return out;
}

export class PageModel implements Disposable {
  private readonly store = new DisposableStore();
  private readonly changeEmitter = this.store.add(new Emitter<void>());
  private readonly terminalEmitter = this.store.add(new Emitter<TerminalEvent>());
  private readonly pending = new PendingSends();
  /** The open session's frame and output that came while no terminal view listened (it mounts after the socket may answer). */
  private held: TerminalEvent[] = [];
  private heldChars = 0;
  private heldOverflow = false;
  /** A re-render of the page held while a terminal is on screen (setFromServer), or null. */
  private lateChange: Disposable | null = null;
  state: PageState;
  readonly onChange: Event<void> = this.changeEmitter.event;

  constructor(private readonly deps: PageModelDeps) {
    this.state = { ...initialState(deps.route), link: deps.link.state };
    this.store.add(deps.link.onMessage((m) => this.receive(m)));
    this.store.add(deps.link.onState((link) => this.set({ ...this.state, link })));
    this.store.add(deps.link.onOpen(() => this.reopen()));
  }

  private set(s: PageState): void {
    this.state = s;
    this.lateChange?.dispose(); // this change re-renders it all now
    this.lateChange = null;
    this.changeEmitter.fire();
  }

  /**
   * The server's news: in the state at once (what the user does next reads it), and re-rendered at
   * once, unless a session's terminal is on screen: then once for all the news of the next
   * BESIDE_TERMINAL_RENDER_MS. What the user does (set) re-renders at once, and takes it along.
   */
  private setFromServer(s: PageState): void {
    if (!this.terminalEmitter.hasListeners) return this.set(s);
    this.state = s;
    this.lateChange ??= this.deps.scheduler.setTimeout(() => this.changeLate(), BESIDE_TERMINAL_RENDER_MS);
  }

  private changeLate(): void {
    this.lateChange = null;
    this.changeEmitter.fire();
  }

  private receive(msg: ServerMessage): void {
    if (msg.t === 'frame' || msg.t === 'out' || msg.t === 'size') {
      if (this.state.route.view !== 'session' || this.state.route.id !== msg.id) return;
      if (this.terminalEmitter.hasListeners) this.terminalEmitter.fire(msg);
      else this.hold(msg);
      return;
    }
    if (msg.t === 'sent') this.pending.sent(msg.cmd, msg.id, msg.status);
    if ((msg.t === 'ok' || msg.t === 'error') && msg.ref !== undefined) this.pending.answered(msg.ref);
    this.setFromServer(applyServer(this.state, msg, this.deps.clock.now()));
  }

  private hold(msg: TerminalEvent): void {
    if (msg.t === 'frame') {
      this.held = [msg];
      this.heldChars = msg.data.length;
      this.heldOverflow = false;
      return;
    }
    if (this.heldOverflow) return;
    this.held.push(msg);
    this.heldChars += msg.t === 'out' ? msg.data.length : 0;
    if (this.heldChars > MAX_HELD_CHARS) {
      this.held = [];
      this.heldOverflow = true;
    }
  }

  /** A terminal view attaches: it gets what came before it (or a fresh frame, when that was too much), then the live stream. */
  attachTerminal(listener: (m: TerminalEvent) => void): Disposable {
    const held = this.held;
    const overflow = this.heldOverflow;
    this.held = [];
    this.heldChars = 0;
    this.heldOverflow = false;
    for (const m of held) listener(m);
    const d = this.terminalEmitter.event(listener);
    const r = this.state.route;
    if (overflow && r.view === 'session') {
      this.deps.link.send({ t: 'close', id: r.id });
      this.deps.link.send({ t: 'open', id: r.id });
    }
    return d;
  }

  /** A fresh connection: the view asked for again (a fresh frame, the room), then what is unanswered. */
  private reopen(): void {
    this.follow(this.state.route, true);
    for (const msg of this.pending.toResend()) this.deps.link.send(msg);
  }

  private follow(route: Route, on: boolean): void {
    const send = (m: PageMessage): boolean => this.deps.link.send(m);
    switch (route.view) {
      case 'session':
        send(on ? { t: 'open', id: route.id } : { t: 'close', id: route.id });
        return;
      case 'diff':
        if (on) send({ t: 'diff', id: route.id });
        return;
      case 'chat':
        send({ t: 'room', room: on ? route.room : null });
        return;
      case 'list':
        return;
    }
  }

  /** The URL's view changed (a tap, back, a notification). */
  setRoute(route: Route): void {
    const old = this.state.route;
    if (sameRoute(old, route)) return;
    this.follow(old, false);
    this.held = [];
    this.heldChars = 0;
    this.heldOverflow = false;
    const exits = { ...this.state.exits };
    if (route.view === 'session') delete exits[route.id];
    this.set({ ...this.state, route, exits, diff: route.view === 'diff' ? null : this.state.diff, chat: route.view === 'chat' ? this.state.chat : null });
    this.follow(route, true);
  }

  toggleMark(id: string): void {
    const m = this.state.marked;
    this.set({ ...this.state, marked: m.includes(id) ? m.filter((x) => x !== id) : [...m, id] });
  }

  clearMarks(): void {
    this.set({ ...this.state, marked: [] });
  }

  /** The prompt box: to the marked rows, else the open session; kept until answered. */
  sendPrompt(text: string): string | null {
    const ids = promptTargets(this.state);
    if (ids.length === 0 || text.trim() === '') return null;
    const msg: PageMessage = { t: 'send', cmd: this.deps.newCmdId(), ids: [...ids], text };
    this.pending.add(msg);
    this.deps.link.send(msg);
    this.set(addSend(this.state, { cmd: msg.cmd, kind: 'send', text, targets: msg.ids, results: {}, error: null, done: null }));
    return msg.cmd;
  }

  /** A diff's comments, as one prompt to its session. */
  sendComments(id: string, comments: readonly (CommentTarget & { text: string })[]): string | null {
    if (comments.length === 0) return null;
    const text = commentPrompt(comments);
    const msg: PageMessage = { t: 'comment', cmd: this.deps.newCmdId(), id, text };
    this.pending.add(msg);
    this.deps.link.send(msg);
    this.set(addSend(this.state, { cmd: msg.cmd, kind: 'comment', text, targets: [id], results: {}, error: null, done: null }));
    return msg.cmd;
  }

  /** Whether a send is still waiting for its answer (shown as "sending"). */
  isPending(cmd: string): boolean {
    return this.pending.has(cmd);
  }

  answer(id: string, n: number): void {
    this.deps.link.send({ t: 'answer', id, n });
  }

  /** Keys in order; a paste longer than one frame takes goes in several (MAX_KEYS_CHARS each). */
  keys(id: string, data: string): void {
    for (const part of keyChunks(data)) this.deps.link.send({ t: 'keys', id, data: part });
  }

  resize(id: string, cols: number, rows: number): void {
    this.deps.link.send({ t: 'resize', id, cols, rows });
  }

  refreshDiff(id: string): void {
    this.deps.link.send({ t: 'diff', id });
  }

  post(room: string, text: string): boolean {
    return text.trim() !== '' && this.deps.link.send({ t: 'post', room, text });
  }

  mute(id: string, muted: boolean): void {
    this.deps.link.send({ t: 'mute', id, muted });
  }

  quiet(quiet: boolean): void {
    if (this.deps.link.send({ t: 'quiet', quiet }) && this.state.welcome) this.set({ ...this.state, welcome: { ...this.state.welcome, quiet } });
  }

  subscribe(sub: PushSubscriptionJson): boolean {
    return this.deps.link.send({ t: 'subscribe', sub });
  }

  dismissNotice(): void {
    this.set({ ...this.state, notice: null });
  }

  dispose(): void {
    this.lateChange?.dispose();
    this.lateChange = null;
    this.store.dispose();
  }
}
