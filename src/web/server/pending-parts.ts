/**
 * STAND-INS until the real parts are merged (issue 30): the integrator replaces these with the hub
 * (./hub/web-hub.ts WebHub) and the push side (./push createPush). This hub only says `welcome` and
 * keeps the `rows` current; the push side is off.
 */
import type { WebSocket } from 'ws';
import { roomOf } from '../../core/chat/chat.js';
import { DisposableStore, type Disposable } from '../../core/lifetime.js';
import { sessionState } from '../../core/session-state.js';
import type { ServerMessage, WebRow } from '../../core/web/web-protocol.js';
import type { BoardFeed } from '../../client/feed/board-api.js';
import type { Time } from '../../core/clock.js';
import type { WebDevice } from './web-types.js';

export class PendingHub implements Disposable {
  private readonly store = new DisposableStore();
  private readonly open = new Set<{ ws: WebSocket; device: WebDevice }>();

  constructor(private readonly o: { feed: BoardFeed; time: Time; version: string }) {
    this.store.add(o.feed.onChange(() => this.open.forEach((s) => send(s.ws, this.rows()))));
  }

  accept(ws: WebSocket, device: WebDevice): void {
    const s = { ws, device };
    this.open.add(s);
    ws.on('close', () => this.open.delete(s));
    send(ws, { t: 'welcome', device: device.id, readOnly: device.readOnly, quiet: false, vapidKey: null, version: this.o.version });
    send(ws, this.rows());
  }

  revoke(deviceId: string): void {
    for (const s of this.open) if (s.device.id === deviceId) this.open.delete(s);
  }

  private rows(): ServerMessage {
    const rows: WebRow[] = this.o.feed.sessions.map((s) => ({
      id: s.id, name: s.name, kind: s.agent, state: sessionState(s), ...(s.host ? { host: s.host } : {}), ...(s.stale ? { stale: true } : {}),
      lastLine: s.previewLine ?? '', lastOutputAt: s.lastOutputAt, worktree: s.worktree?.branch ?? null, room: roomOf(s), dialog: null, muted: false,
    }));
    return { t: 'rows', rows, hostLines: [...(this.o.feed.hostLines ?? [])], now: new Date(this.o.time.clock.now()).toISOString() };
  }

  dispose(): void {
    this.store.dispose();
    for (const s of this.open) s.ws.close(1001, 'server stopping');
  }
}

const send = (ws: WebSocket, m: ServerMessage) => ws.send(JSON.stringify(m));
