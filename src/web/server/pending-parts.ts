/**
 * STAND-INS until the real parts are merged (issue 30): the integrator replaces PendingHub with the
 * hub (./hub/web-hub.ts WebHub, same constructor deps), NO_QUESTIONS with LiveWaitingQuestions
 * (src/client/notify/waiting-questions.ts) and PUSH_OFF with the push side (./push createPush).
 * This hub only says `welcome`, keeps the `rows` current and answers any frame with an `error`.
 */
import type { WebSocket } from 'ws';
import { roomOf } from '../../core/chat/chat.js';
import { sessionState } from '../../core/session-state.js';
import { decodePageMessage, type ServerMessage, type WebRow } from '../../core/web/web-protocol.js';
import { DisposableStore, NEVER, type Disposable } from '../../core/lifetime.js';
import type { HubDeps, PushControl, WaitingQuestions, WebDevice } from './web-types.js';

/** No question is ever read (the real one reads a waiting session's dialog off its screen). */
export const NO_QUESTIONS: WaitingQuestions = { dialog: () => null, onChange: NEVER };

/** Push is off: no key, nothing kept. */
export const PUSH_OFF: PushControl = { publicKey: null, subscribe: () => undefined, mute: () => undefined, quiet: () => undefined, isMuted: () => false, isQuiet: () => false };

export class PendingHub implements Disposable {
  private readonly store = new DisposableStore();
  private readonly open = new Set<{ ws: WebSocket; device: WebDevice }>();

  constructor(private readonly o: HubDeps) {
    this.store.add(o.feed.onChange(() => this.open.forEach((s) => send(s.ws, this.rows()))));
  }

  accept(ws: WebSocket, device: WebDevice): void {
    const s = { ws, device };
    this.open.add(s);
    ws.on('close', () => this.open.delete(s));
    ws.on('message', (d) => {
      const m = decodePageMessage(String(d));
      send(ws, { t: 'error', ...(m.ok ? {} : { ref: m.ref }), line: m.ok ? `${m.msg.t}: not served yet (the hub is a stand-in)` : m.line });
    });
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
