/**
 * A web hub over a real home for the tests: the real LiveBoardFeed, LiveChatFeed and board actions,
 * connections to the real runners, and a real `ws` server on 127.0.0.1 handing each socket straight
 * to WebHub.accept (no HTTP auth: the device is named in the URL). Push and the waiting questions
 * are stand-ins: they are not what these tests are about.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { createBoardActions } from '../../src/client/board-actions/board-actions.js';
import { LiveBoardFeed } from '../../src/client/feed/board-feed.js';
import { LiveChatFeed } from '../../src/client/feed/chat-feed.js';
import { connectSession } from '../../src/client/session/sessions.js';
import type { DialogText } from '../../src/core/agents/dialog-text.js';
import { Emitter } from '../../src/core/lifetime.js';
import { MAX_PAGE_FRAME_BYTES, type PushSubscriptionJson } from '../../src/core/web/web-protocol.js';
import { newTerminal } from '../../src/state/headless-terminal.js';
import { WebHub } from '../../src/web/server/hub/web-hub.js';
import type { PushControl, WaitingQuestions, WebDevice } from '../../src/web/server/web-types.js';
import { REAL_TIME } from './real-time.js';
import { TestPage } from './web-page.js';

export const DEVICES: Record<string, WebDevice> = {
  typist: { id: 'dev-typist', name: 'laptop', readOnly: false },
  viewer: { id: 'dev-viewer', name: 'phone', readOnly: true },
  other: { id: 'dev-other', name: 'tablet', readOnly: false },
};

export class FakePush implements PushControl {
  readonly publicKey = null;
  readonly subs: Array<[string, PushSubscriptionJson]> = [];
  private readonly muted = new Set<string>();
  private readonly quietOnes = new Set<string>();
  subscribe(deviceId: string, sub: PushSubscriptionJson): void {
    this.subs.push([deviceId, sub]);
  }
  mute(deviceId: string, sessionId: string, muted: boolean): void {
    if (muted) this.muted.add(`${deviceId}/${sessionId}`);
    else this.muted.delete(`${deviceId}/${sessionId}`);
  }
  quiet(deviceId: string, quiet: boolean): void {
    if (quiet) this.quietOnes.add(deviceId);
    else this.quietOnes.delete(deviceId);
  }
  isMuted(deviceId: string, sessionId: string): boolean {
    return this.muted.has(`${deviceId}/${sessionId}`);
  }
  isQuiet(deviceId: string): boolean {
    return this.quietOnes.has(deviceId);
  }
}

/** Waiting questions as the test sets them (the real reader is the push side's, not the hub's). */
export class SetQuestions implements WaitingQuestions {
  private readonly asked = new Map<string, DialogText>();
  private readonly changes = new Emitter<void>();
  readonly onChange = this.changes.event;
  dialog(id: string): DialogText | null {
    return this.asked.get(id) ?? null;
  }
  set(id: string, d: DialogText | null): void {
    if (d) this.asked.set(id, d);
    else this.asked.delete(id);
    this.changes.fire();
  }
}

export class HubRig {
  readonly feed: LiveBoardFeed;
  readonly chat: LiveChatFeed;
  readonly push = new FakePush();
  readonly questions = new SetQuestions();
  readonly hub: WebHub;
  readonly errors: string[] = [];
  /** The server's side of each page's socket, by the device it was opened as. */
  readonly sockets: Array<{ device: string; ws: WebSocket }> = [];
  private readonly wss: WebSocketServer;
  private readonly pages: TestPage[] = [];

  private constructor(readonly home: string, wss: WebSocketServer) {
    this.wss = wss;
    this.feed = new LiveBoardFeed(home, REAL_TIME);
    this.chat = new LiveChatFeed(home, { scheduler: REAL_TIME.scheduler });
    this.hub = new WebHub({
      feed: this.feed,
      chat: this.chat,
      roomChat: () => new LiveChatFeed(home, { scheduler: REAL_TIME.scheduler }),
      actions: createBoardActions(home, REAL_TIME, { ...process.env, AGENT_BOARD_HOME: home, USER: 'tester' }),
      connect: (s, o) => connectSession(home, s, 'web-test', REAL_TIME, o.readOnly),
      questions: this.questions,
      push: this.push,
      time: REAL_TIME,
      version: 'test',
    });
    this.hub.onError((e) => this.errors.push(e));
    wss.on('connection', (ws, req) => {
      const who = new URL(req.url ?? '/', 'http://x').searchParams.get('device') ?? 'typist';
      this.sockets.push({ device: who, ws });
      this.hub.accept(ws, DEVICES[who]!);
    });
  }

  static async start(home: string): Promise<HubRig> {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, maxPayload: MAX_PAGE_FRAME_BYTES });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    return new HubRig(home, wss);
  }

  get port(): number {
    return (this.wss.address() as AddressInfo).port;
  }

  async page(device = 'typist'): Promise<TestPage> {
    const p = await TestPage.open(`ws://127.0.0.1:${this.port}/?device=${device}`);
    this.pages.push(p);
    return p;
  }

  async stop(): Promise<void> {
    for (const p of this.pages) p.ws.terminate();
    this.hub.dispose();
    this.feed.dispose();
    this.chat.dispose();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

/** What a page's terminal shows after `data`, at cols x rows: its lines, right-trimmed. */
export async function render(cols: number, rows: number, data: string): Promise<string[]> {
  const term = newTerminal({ cols, rows, scrollback: 0, allowProposedApi: true });
  await new Promise<void>((resolve) => term.write(data, resolve));
  const buf = term.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < rows; y++) lines.push((buf.getLine(buf.baseY + y)?.translateToString(true) ?? '').trimEnd());
  term.dispose();
  return lines;
}

/** The screen a page shows for session `id`: its last frame and the output after it. */
export async function pageScreen(p: TestPage, id: string): Promise<string[]> {
  const frames = p.of('frame').filter((f) => f.id === id);
  const sizes = p.frames.filter((f) => (f.t === 'frame' || f.t === 'size') && f.id === id);
  const last = sizes[sizes.length - 1] as { cols: number; rows: number } | undefined;
  if (!frames.length || !last) return [];
  return render(last.cols, last.rows, p.terminalSince(id));
}
