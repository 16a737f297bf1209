/**
 * What the board needs from the outside world, as interfaces: the real ones
 * talk to runners (src/client/feed/board-feed.ts, src/client/feed/chat-feed.ts,
 * src/client/board-actions/board-actions.ts), tests hand in fakes through context. They live in
 * the client, which makes the real ones; the board (src/ui) imports them.
 */
import type { SendOutcome } from '../send/durable-send.js';
import type { KillOutcome } from '../session/session-actions.js';
import type { ReviveOutcome } from '../session/session-revive.js';
import type { Event } from '../../core/lifetime.js';
import type { ChatEvent, ChatRecord } from '../../core/chat/chat.js';
import type { DiffModel } from '../../core/worktree/diff-model.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import type { StatusExplanation } from '../../core/agents/status-explain.js';
import type { SessionView } from '../../state/host-store.js';
import type { NewKind } from '../../core/board/board-types.js';
import type { FormInput, NewPlan } from '../session/new-session.js';

/** The selected session's screen, for the preview pane. */
export interface PreviewScreen {
  id: string;
  cols: number;
  rows: number;
  /** One string per screen row, plain text, right-trimmed. */
  lines: string[];
  cursorX: number;
  cursorY: number;
  /** The screen is the last one of an exited session. */
  final: boolean;
}

/** Something that went wrong inside a feed, told instead of swallowed. */
export interface FeedError {
  /** What happened and where, for the board log (src/client/feed/board-log.ts). */
  detail: string;
  /** One line for the board's footer, when a user should know (most problems only need the log). */
  userMessage?: string;
}

/** Live list of sessions and the preview, kept current by pushes from the runners. */
export interface BoardFeed {
  /** Every session in the home, oldest first, with the status a user should see. */
  readonly sessions: readonly SessionView[];
  /** The preview of the session last passed to setPreview, once it has arrived. */
  readonly preview: PreviewScreen | null;
  /** Fires after any change to sessions or preview, at most once a frame (src/client/feed/frame-throttle.ts). */
  readonly onChange: Event<void>;
  /** What went wrong inside the feed (it carries on). */
  readonly onError: Event<FeedError>;
  /** Which session the preview follows (null: none). */
  setPreview(id: string | null): void;
  /** With --host: one line for each machine that cannot be reached now (src/client/remote/remote-feed.ts). */
  readonly hostLines?: readonly string[];
  dispose(): void;
}

/** The new-session form's fields, as they go to the plan and to create (src/client/session/new-session.ts). */
export type NewSessionInput = FormInput;
/** What the form shows before it starts anything: the plan without createSession's options. */
export type NewSessionPlan = Omit<NewPlan, 'opts'>;

/** A room's chat as the board shows it. */
export interface RoomChat {
  room: string;
  /** The room's records, oldest first. */
  records: readonly ChatRecord[];
  /** The loop guard has paused the room's wakes (until a human /continue). */
  paused: boolean;
}

/**
 * The chat of the rooms on the board, kept current as their chat files
 * change: the open room's messages, and which rooms the loop guard paused
 * (worked out when a chat changes, never per render).
 */
export interface ChatFeed {
  /** Of the rooms given to watchRooms, those whose loop guard is paused, sorted. */
  readonly pausedRooms: readonly string[];
  /** The room passed to openRoom, once read; a new object after every change. */
  readonly chat: RoomChat | null;
  /** The rooms the paused banner is about: those of the sessions on the board. */
  watchRooms(rooms: readonly string[]): void;
  /** The room whose messages `chat` holds (null: none). */
  openRoom(room: string | null): void;
  /** Fires after any change (coalesced). */
  readonly onChange: Event<void>;
  dispose(): void;
}

/** What a post from the board did. */
export interface ChatPosted {
  id: number;
  /** The loop guard's note the post caused: `resume` when a /continue lifted a pause. */
  event: ChatEvent | null;
  /** The room is paused after the post. */
  paused: boolean;
}

/**
 * Keys for one running session, as typed (`input` messages, never
 * journaled), in order over one connection: the board's digits and its
 * type-through. Keys written before it is connected wait for it.
 */
export interface SessionInput {
  write(data: string): void;
  /** Fires once if keys cannot go any more (no runner, the program exited), with a line saying why. */
  readonly onEnd: Event<string>;
  /** Whether it has ended (then writes are dropped). */
  readonly ended: boolean;
  /** Ends the connection once what was written is sent. */
  close(): void;
}

/** What the board can do to sessions. Each rejects with a UserError whose message is one line for the footer. */
export interface BoardActions {
  /** A keys connection to a running session (the caller closes it). */
  openInput(s: SessionView): SessionInput;
  /**
   * Types a prompt and Enter exactly once, through `send`'s path (src/client/send/durable-send.ts).
   * `commandId`: the caller's own (the web page's, kept across its reconnects): the same id again
   * is reconciled with the runner's journal first, never typed twice. `overBudget`: typed even
   * though a spent budget holds the session's prompts (the board's confirm; docs/usage.md).
   */
  sendPrompt(s: SessionView, text: string, commandId?: string, opts?: { overBudget?: boolean }): Promise<SendOutcome>;
  /** Asks the session's runner why it has its state (the `explain` message). */
  explain(s: SessionView): Promise<StatusExplanation>;
  /** A sandboxed session's explain lines: its whole allowlist and this machine's places (another machine's: in words); none for one not sandboxed. */
  sandboxLines(s: SessionView, now: number): [string, string][];
  /** Everything a worktree session changed against its base (src/client/worktree/worktree-diff.ts). */
  diff(s: SessionView): Promise<DiffModel>;
  /** The kinds the form offers, with whether each one's program is installed (looked up when the form opens). */
  newKinds(cwd: string): readonly NewKind[];
  /** What the form's fields would start (`taken`: the names on the board), or what stops them; as the user types, so quick. */
  planNew(input: NewSessionInput, taken: readonly string[]): NewSessionPlan;
  /** Starts what the form planned, in place or in a new worktree: the code `agent-board new` runs. */
  create(input: NewSessionInput): Promise<HostRecord>;
  kill(s: SessionView): Promise<KillOutcome>;
  /** Resolves with what became of a worktree session's worktree (one line; null without one). Never discards work. */
  remove(s: SessionView): Promise<string | null>;
  rename(s: SessionView, name: string): Promise<void>;
  /** Turns resume-after-limit on (the kind's prompt of config.json, else "continue") or off; resolves with what it set (null: off). */
  resumeAfterLimit(s: SessionView, on: boolean): Promise<{ prompt: string; perDay: number } | null>;
  /** Posts `text` to the room's chat as the human at the board (/continue resumes a paused room). */
  postChat(room: string, text: string): Promise<ChatPosted>;
  /** Brings lost sessions back in place, as `agent-board revive` does (src/client/session/session-revive.ts), each outcome to `onOutcome` as it is known (in order); never rejects: each outcome says. */
  revive(sessions: readonly SessionView[], onOutcome?: (o: ReviveOutcome) => void): Promise<ReviveOutcome[]>;
}

/** What the notifier tells the board: rows to mark (they rang), or a line for the footer. */
export type Notice = { kind: 'attention'; ids: readonly string[] } | { kind: 'message'; text: string; error: boolean };

/**
 * The board's side of its notifier (src/ui/board-notifier.ts), which follows
 * the sessions for as long as the board runs, attaches included, and rings.
 */
export interface BoardNotices {
  /** Notices from now on; those that came while nobody listened (during an attach) first. */
  readonly onNotice: Event<Notice>;
  /** The rows the board marks now: the user looked at the others. */
  unseen(ids: readonly string[]): void;
  /** The session the user is typing into from the board (null: none): as for an attach, it does not ring. */
  attached?(id: string | null): void;
}
