/** A BoardFeed, ChatFeed and BoardActions the tests drive by hand. */
import type { SendOutcome } from '../../src/client/send/durable-send.js';
import type { KillOutcome } from '../../src/client/session/session-actions.js';
import type { ReviveOutcome } from '../../src/client/session/session-revive.js';
import type { StatusExplanation } from '../../src/core/agents/status-explain.js';
import { sessionIo } from '../../src/client/board-actions/session-io.js';
import { FakeRunner } from './fake-runner.js';
import type { ChatRecord } from '../../src/core/chat/chat.js';
import type { DiffModel } from '../../src/core/worktree/diff-model.js';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import type { SessionView } from '../../src/state/host-store.js';
import type { BoardActions, BoardFeed, ChatFeed, ChatPosted, FeedError, NewSessionInput, NewSessionPlan, PreviewScreen, RoomChat, SessionInput } from '../../src/client/feed/board-api.js';
import type { NewKind } from '../../src/core/board/board-types.js';
import { Emitter, NEVER, type Event } from '../../src/core/lifetime.js';
import { REAL_TIME } from '../helpers/real-time.js';
import type { BoardLog } from '../../src/client/feed/board-log.js';
import { sandboxLines } from '../../src/core/sandbox/sandbox-text.js';

let counter = 0;

export function session(over: Partial<SessionView> = {}): SessionView {
  const n = ++counter;
  const at = new Date(Date.now() - 300_000).toISOString();
  return {
    id: over.id ?? `id${String(n).padStart(6, '0')}`,
    name: `s${n}`,
    agent: 'shell',
    command: 'bash',
    args: [],
    cwd: '/tmp',
    createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(),
    updatedAt: at,
    heartbeatAt: at,
    lastOutputAt: at,
    runnerPid: 1,
    childPid: 2,
    generation: 'g',
    status: 'running',
    // As a runner reports it once the program has said something: at its prompt.
    activity: 'idle',
    activitySource: 'bytes',
    cols: 80,
    rows: 24,
    exitCode: null,
    exitSignal: null,
    scrollback: 0,
    runnerAlive: true,
    ...over,
  };
}

export class FakeFeed implements BoardFeed {
  sessions: readonly SessionView[];
  preview: PreviewScreen | null = null;
  previewFor: (string | null)[] = [];
  private readonly changes = new Emitter<void>();

  constructor(sessions: SessionView[] = []) {
    this.sessions = sessions;
  }
  readonly onChange: Event<void> = this.changes.event;
  /** Errors a test makes the feed report (fireError). */
  private readonly errors = new Emitter<FeedError>();
  readonly onError: Event<FeedError> = this.errors.event;
  fireError(e: FeedError): void {
    this.errors.fire(e);
  }
  setPreview(id: string | null): void {
    this.previewFor.push(id);
  }
  dispose(): void {
    this.changes.dispose();
  }

  setSessions(sessions: SessionView[]): void {
    this.sessions = sessions;
    this.notify();
  }
  setScreen(screen: PreviewScreen | null): void {
    this.preview = screen;
    this.notify();
  }
  notify(): void {
    this.changes.fire();
  }
}

type Call =
  | { op: 'create'; input: NewSessionInput }
  | { op: 'kill' | 'remove' | 'diff'; id: string }
  | { op: 'rename'; id: string; name: string }
  | { op: 'resume-after-limit'; id: string; on: boolean }
  | { op: 'chat'; room: string; text: string }
  | { op: 'revive'; ids: string[] };

/**
 * Records each call; what it resolves with (or rejects with) is up to the
 * test. What talks to a runner (keys, prompts, explain) goes through the
 * board's real client code (src/client/board-actions/session-io.ts) to a FakeRunner per
 * session, made on first use; `connect` may be replaced (to fail, say).
 */
export class FakeActions implements BoardActions {
  readonly runners = new Map<string, FakeRunner>();
  /** The connections opened, as "client session-name". */
  readonly connections: string[] = [];
  connect = async (s: SessionView, client: string) => {
    this.connections.push(`${client} ${s.name}`);
    return this.runner(s.id).asConnection();
  };
  // A prompt and an explanation may take this long in these tests.
  private readonly io = sessionIo((s, client) => this.connect(s, client), REAL_TIME, { sendTimeoutMs: 2000, explainTimeoutMs: 300 });
  calls: Call[] = [];
  createResult: (input: NewSessionInput) => Promise<HostRecord> = async (input) => session({ name: input.name ?? 'new-1', command: input.command });
  /** The form's kinds (the real ones come from the rules files and PATH: src/client/session/new-session.ts). */
  kinds: readonly NewKind[] = [
    { name: 'shell', program: null, installed: true },
    { name: 'claude', program: 'claude', installed: true },
    { name: 'codex', program: 'codex', installed: false },
    { name: 'demo', program: null, installed: true },
  ];
  /** The form's plan: a plain one, unless a test says otherwise (the real one: test/unit/new-session.test.ts, and end to end). */
  planResult: (input: NewSessionInput, taken: readonly string[]) => NewSessionPlan = (input) => {
    const name = input.name ?? `${input.kind === 'shell' ? (input.command.split(' ')[0] ?? 'sh').replace(/.*\//, '') : input.kind}-1`;
    const branch = input.worktree ? (input.branch ?? `agent/${name}`) : null;
    return { kind: input.kind, name, branch, runs: input.kind === 'shell' ? input.command : `${input.kind} ${input.command}`.trim(), line: `agent-board new --name ${name}`, problem: null, repo: '/home/me', sandbox: input.sandbox === 'on' ? { backend: 'bwrap', network: 'allowlist' } : null };
  };
  newKinds(): readonly NewKind[] {
    return this.kinds;
  }
  planNew(input: NewSessionInput, taken: readonly string[]): NewSessionPlan {
    return this.planResult(input, taken);
  }
  killResult: () => Promise<KillOutcome> = async () => ({ kind: 'exit', code: null, signal: 'SIGTERM' });
  removeResult: () => Promise<string | null> = async () => null;
  renameResult: () => Promise<void> = async () => undefined;
  chatResult: (room: string, text: string) => Promise<ChatPosted> = async () => ({ id: 1, event: null, paused: false });
  diffResult: (s: SessionView) => Promise<DiffModel> = async () => ({ files: [], added: 0, removed: 0 });
  reviveResult: (sessions: readonly SessionView[], onOutcome?: (o: ReviveOutcome) => void) => Promise<ReviveOutcome[]> = async (sessions) =>
    sessions.map((s) => ({ kind: 'revived', session: s, record: { ...s, status: 'running' }, conversation: { outcome: s.agent === 'shell' ? 'none' : 'fresh', note: 'conversation x was never saved (no turn yet): started afresh as x' } }));

  diff(s: SessionView): Promise<DiffModel> {
    this.calls.push({ op: 'diff', id: s.id });
    return this.diffResult(s);
  }
  create(input: NewSessionInput): Promise<HostRecord> {
    this.calls.push({ op: 'create', input });
    return this.createResult(input);
  }
  kill(s: SessionView): Promise<KillOutcome> {
    this.calls.push({ op: 'kill', id: s.id });
    return this.killResult();
  }
  remove(s: SessionView): Promise<string | null> {
    this.calls.push({ op: 'remove', id: s.id });
    return this.removeResult();
  }
  rename(s: SessionView, name: string): Promise<void> {
    this.calls.push({ op: 'rename', id: s.id, name });
    return this.renameResult();
  }
  resumeAfterLimit(s: SessionView, on: boolean): Promise<{ prompt: string; perDay: number } | null> {
    this.calls.push({ op: 'resume-after-limit', id: s.id, on });
    return Promise.resolve(on ? { prompt: 'continue', perDay: 3 } : null);
  }
  postChat(room: string, text: string): Promise<ChatPosted> {
    this.calls.push({ op: 'chat', room, text });
    return this.chatResult(room, text);
  }
  revive(sessions: readonly SessionView[], onOutcome?: (o: ReviveOutcome) => void): Promise<ReviveOutcome[]> {
    this.calls.push({ op: 'revive', ids: sessions.map((s) => s.id) });
    return this.reviveResult(sessions, onOutcome);
  }
  openInput(s: SessionView): SessionInput {
    return this.io.openInput(s);
  }
  sendPrompt(s: SessionView, text: string, commandId?: string, opts?: { overBudget?: boolean }): Promise<SendOutcome> {
    return this.io.sendPrompt(s, text, commandId, opts);
  }
  explain(s: SessionView): Promise<StatusExplanation> {
    return this.io.explain(s);
  }
  /** In words, as for another machine's session (the real one's places: test/integration/sandbox-refusal.test.ts). */
  sandboxLines(s: SessionView, now: number): [string, string][] {
    return sandboxLines(s, now);
  }

  /** The fake runner of a session (made on first use). */
  runner(id: string): FakeRunner {
    let r = this.runners.get(id);
    if (!r) this.runners.set(id, (r = new FakeRunner('')));
    return r;
  }
}

/** Rooms' chats the test writes by hand; remembers what the board asked to watch and open. */
export class FakeChatFeed implements ChatFeed {
  pausedRooms: readonly string[] = [];
  watched: (readonly string[])[] = [];
  opened: (string | null)[] = [];
  private open: string | null = null;
  private readonly records = new Map<string, ChatRecord[]>();
  private readonly paused = new Set<string>();
  private readonly changes = new Emitter<void>();
  private cache: RoomChat | null = null;

  get chat(): RoomChat | null {
    if (this.open === null) return null;
    if (this.cache?.room !== this.open) this.cache = { room: this.open, records: this.records.get(this.open) ?? [], paused: this.paused.has(this.open) };
    return this.cache;
  }
  watchRooms(rooms: readonly string[]): void {
    this.watched.push(rooms);
  }
  openRoom(room: string | null): void {
    this.opened.push(room);
    this.open = room;
    this.notify();
  }
  readonly onChange: Event<void> = this.changes.event;
  dispose(): void {
    this.changes.dispose();
  }

  /** Appends records to a room (ids and times filled in when not given). */
  post(room: string, ...recs: (Partial<ChatRecord> & Pick<ChatRecord, 'from' | 'text'>)[]): void {
    const list = [...(this.records.get(room) ?? [])];
    for (const r of recs) {
      list.push({ id: list.length + 1, ts: new Date(2025, 0, 1, 9, 30).toISOString(), kind: 'human', mentions: [], ...r });
    }
    this.records.set(room, list);
    this.changed();
  }
  setPaused(room: string, paused: boolean): void {
    if (paused) this.paused.add(room);
    else this.paused.delete(room);
    this.pausedRooms = [...this.paused].sort();
    this.changed();
  }
  private changed(): void {
    this.cache = null;
    this.notify();
  }
  notify(): void {
    this.changes.fire();
  }
}

/** A preview screen from text lines. */
export function screen(id: string, lines: string[], over: Partial<PreviewScreen> = {}): PreviewScreen {
  return { id, cols: 80, rows: lines.length, lines, cursorX: 0, cursorY: lines.length - 1, final: false, ...over };
}

/** A board log that keeps its lines, for tests to read. */
export class MemoryLog implements BoardLog {
  readonly lines: string[] = [];
  readonly onWriteError = NEVER;
  write(line: string): void {
    this.lines.push(line);
  }
}
