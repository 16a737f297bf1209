/**
 * The web server's WebSocket hub (docs/web.md): every page socket the HTTP side let in is handed
 * to `accept` with its device, and the hub owns it from there, as tmux's server owns its clients
 * (./page-socket.ts). It sends each page `welcome`, then `rows`, and `rows` again after every
 * change of the feed (at most once a frame: BoardFeed.onChange is throttled) or of the waiting
 * questions; the rows are built once per change (src/core/web/web-rows.ts) and each device's mutes
 * marked on its own copy. The prompts of every page go through one PromptSends, so a page that
 * sends a command again after a reconnect joins the one on its way.
 */
import type { WebSocket } from 'ws';
import { DisposableStore, Emitter, toDisposable, type Disposable, type Event } from '../../../core/lifetime.js';
import { isoTime } from '../../../core/iso-time.js';
import type { ServerMessage } from '../../../core/web/web-protocol.js';
import { webRows } from '../../../core/web/web-rows.js';
import type { HubDeps, WebDevice } from '../web-types.js';
import { CLOSE_REVOKED, PageSocket } from './page-socket.js';
import { PromptSends } from './prompt-sends.js';

type RowsMessage = Extract<ServerMessage, { t: 'rows' }>;

export class WebHub implements Disposable {
  private readonly store = new DisposableStore();
  private readonly pages = new Set<PageSocket>();
  private readonly sends: PromptSends;
  private readonly errors = new Emitter<string>();
  /** What went wrong that only the server's log needs (a page socket's error, a handler that threw). */
  readonly onError: Event<string> = this.errors.event;
  /** The list as last built; null: the feed or the questions changed since. */
  private rows: RowsMessage | null = null;

  constructor(private readonly deps: HubDeps) {
    this.sends = new PromptSends((s, text, commandId) => deps.actions.sendPrompt(s, text, commandId));
    this.store.add(this.errors);
    this.store.add(deps.feed.onChange(() => this.changed(true)));
    this.store.add(deps.questions.onChange(() => this.changed(false)));
    this.store.add(
      toDisposable(() => {
        for (const p of [...this.pages]) p.dispose();
      }),
    );
  }

  /** A page socket the HTTP side let in, and whose it is. */
  accept(ws: WebSocket, device: WebDevice): void {
    if (this.store.isDisposed) {
      ws.close(1001, 'the server is stopping');
      return;
    }
    const page = new PageSocket(ws, device, { hub: this.deps, sends: this.sends, rows: () => this.currentRows(), report: (line) => this.errors.fire(line) });
    this.pages.add(page);
    page.onClose(() => this.pages.delete(page));
  }

  /** The device was revoked: its open sockets close at once (4401), whatever they were doing. */
  revoke(deviceId: string): void {
    for (const p of [...this.pages]) if (p.device.id === deviceId) p.close(CLOSE_REVOKED, 'this device was revoked');
  }

  /** The pages open now (for `web --status` and the tests). */
  get pageCount(): number {
    return this.pages.size;
  }

  dispose(): void {
    this.store.dispose();
  }

  private changed(sessions: boolean): void {
    this.rows = null;
    const sessionList = this.deps.feed.sessions;
    const find = (id: string) => sessionList.find((s) => s.id === id);
    for (const p of [...this.pages]) {
      p.sendRows();
      if (sessions) p.sessionsChanged(find);
    }
  }

  private currentRows(): RowsMessage {
    this.rows ??= { t: 'rows', rows: webRows(this.deps.feed.sessions, (id) => this.deps.questions.dialog(id)), hostLines: [...(this.deps.feed.hostLines ?? [])], now: '' };
    // `now` as it is sent: the page reads the rows' ages against it, whatever its own clock says.
    return { ...this.rows, now: isoTime(this.deps.time.clock.now()) };
  }
}
