/**
 * The board's state and its actions, as types: what the reducer (./board-state.ts) holds and
 * what it is told, with the shape of everything that opens over the list (a form, the chat pane,
 * the prompt line, the explain and type-through views, the diff review). Types and the new-session
 * form's field order only: the reducer's steps import these, and the reducer imports its steps.
 */
import type { HostRecord } from '../protocol/host-record.js';
import type { StatusExplanation } from '../agents/status-explain.js';
import type { DiffModel } from '../worktree/diff-model.js';
import type { CommentTarget, DiffRows } from './diff-view.js';

/** A row: a host record's fields the reducer reads (to list, filter and select it), and the machine it is on (the board's --host; none: this one). */
export type BoardSession = Pick<HostRecord, 'id' | 'name' | 'room' | 'agent' | 'foregroundAgent' | 'command' | 'args' | 'extraArgs' | 'status' | 'activity' | 'limited' | 'exitCode' | 'exitSignal' | 'killed' | 'cannotWrite' | 'budgetState'> & {
  host?: string;
  /** Its machine cannot be reached now (the board's --host): the row shows what was, and counts as `no link`. */
  stale?: boolean;
};

/** The new-session form's fields (./new-form.ts), in the order the form shows them (NEW_FIELDS). */
export interface NewFields {
  /** The agent kind; `shell`: the command line says (`claude` in it is claude). */
  kind: string;
  name: string;
  /** A shell's command line, or an agent's extra arguments. */
  command: string;
  cwd: string;
  room: string;
  /** In a new git worktree, on `branch` (proposed from the name until edited). */
  worktree: boolean;
  branch: string;
  /** `on`: sandboxed (bubblewrap, network allowlist: new --sandbox); `off`: not (new --no-sandbox); absent: as config.json says for its room or kind. */
  sandbox?: 'on' | 'off';
}
export const NEW_FIELDS: readonly (keyof NewFields)[] = ['kind', 'name', 'command', 'cwd', 'room', 'worktree', 'branch', 'sandbox'];

/** A kind the form offers: its own program (none: a command line runs) and whether it is installed. */
export interface NewKind {
  name: string;
  program: string | null;
  installed: boolean;
}

export interface NewOverlay {
  kind: 'new';
  fields: NewFields;
  /** The form's kinds, in order. */
  kinds: readonly NewKind[];
  /** What the command field holds for a shell when nothing was typed ($SHELL). */
  shellCommand: string;
  focus: number;
  /** The branch was edited: it no longer follows the name. */
  branchEdited: boolean;
  /** The branch the plan proposes (agent/<name>), told by the form as the name changes. */
  proposedBranch: string;
  pending: boolean;
  error: string | null;
}

export type Overlay =
  | { kind: 'none' }
  | { kind: 'help' }
  | { kind: 'filter' }
  | NewOverlay
  | { kind: 'rename'; id: string; name: string; value: string; pending: boolean; error: string | null }
  | { kind: 'confirm-kill'; id: string; name: string }
  | ChatOverlay
  | PromptOverlay
  | ExplainOverlay
  | TypingOverlay
  | DiffOverlay;

/** The chat pane of a room: its input line and how far back its history is scrolled. */
export interface ChatOverlay {
  kind: 'chat';
  room: string;
  input: string;
  /** A post is on its way; the input waits. */
  pending: boolean;
  /** Wrapped lines the view is scrolled back from the newest; 0 follows new messages. */
  scroll: number;
  /** The log's rows on screen and its wrapped lines in all, as the pane last reported them. */
  rows: number;
  lines: number;
}

/** The footer's one line: what the last action came to, or what went wrong (`error`). */
export interface Message {
  text: string;
  error: boolean;
}

/**
 * What the board shows over the session list, the user's side of it: the selection, the filter,
 * the marks and whatever is open, each naming sessions by id. The list itself is the feed's
 * (src/client/feed/board-feed.ts owns it): the reducer is handed it, and keeps none.
 */
export interface BoardState {
  selectedId: string | null;
  /** A session to select as soon as the feed shows it (one just created). */
  wantedId: string | null;
  filter: string;
  /** Index (in the visible list) of the first row on screen. */
  scroll: number;
  /** How many list rows the screen has room for. */
  listRows: number;
  overlay: Overlay;
  message: Message | null;
  /** Sessions whose row is marked (it rang: src/core/board/notify.ts) until the user looks, in the order they rang. */
  attention: readonly string[];
  /** Sessions the user marked (Space) for the prompt line, in the order marked. */
  marks: readonly string[];
  /** The demo's walkthrough line was hidden (./walkthrough.ts). */
  walkthroughHidden: boolean;
  /** The list shows each session's tokens and cost (the `u` key; docs/usage.md). */
  usageShown: boolean;
}

/**
 * The board as it is drawn: the feed's session list as the board last read it (the feed's own
 * array, never a copy) and the state over it. `S`: what the list holds (the board's SessionView).
 */
export interface BoardView<S extends BoardSession = BoardSession> {
  readonly sessions: readonly S[];
  readonly state: BoardState;
}

export type BoardAction =
  | { type: 'viewport'; rows: number }
  | { type: 'move'; by: number }
  | { type: 'page'; by: 1 | -1 }
  | { type: 'jump'; to: 'first' | 'last' }
  | { type: 'select'; id: string }
  | { type: 'attention'; ids: readonly string[] }
  | { type: 'attached'; id: string }
  | { type: 'message'; text: string; error?: boolean }
  | { type: 'clear' }
  | { type: 'hide-walkthrough' }
  | { type: 'toggle-usage' }
  | { type: 'open-help' }
  | { type: 'open-filter' }
  | { type: 'accept-filter' }
  | { type: 'open-new'; defaults: NewFields; kinds: readonly NewKind[] }
  | { type: 'new-choose'; by: 1 | -1 }
  | { type: 'new-proposal'; branch: string }
  | { type: 'open-rename' }
  | { type: 'open-kill' }
  | { type: 'close' }
  | { type: 'type'; text: string }
  | { type: 'delete-back' }
  | { type: 'clear-field' }
  | { type: 'focus-field'; by: 1 | -1 }
  | { type: 'form-pending' }
  | { type: 'form-failed'; message: string }
  | { type: 'form-done'; message: string; selectId?: string }
  | { type: 'open-chat' }
  | { type: 'chat-viewport'; rows: number; lines: number }
  | { type: 'chat-pending' }
  | { type: 'chat-posted'; message?: string }
  | { type: 'chat-failed'; message: string }
  | PromptAction
  | SessionViewAction
  | DiffAction;

// ---- the prompt line (./board-prompt.ts) ----------------------------------

/** How a prompt went in one session (src/client/send/durable-send.ts's outcomes, and what came before them). */
export type PromptStatus = 'sending' | 'applied' | 'accepted' | 'unconfirmed' | 'not typed' | 'error';

export interface PromptResult {
  id: string;
  name: string;
  status: PromptStatus;
  /** Why, for the ones that were not typed or cannot be told. */
  detail?: string;
  /** Not typed because a spent budget holds the session's prompts: `!` sends it anyway. */
  held?: true;
}

export interface PromptOverlay {
  kind: 'prompt';
  /** Who gets it: the marked sessions when the line opened, else the selected one. */
  targets: readonly { id: string; name: string }[];
  input: string;
  /** Empty while the line is edited; one per target once Enter sent it. */
  results: readonly PromptResult[];
  /** The text that was sent (the input is cleared). */
  sent: string;
}

export type PromptAction =
  | { type: 'toggle-mark' }
  | { type: 'open-prompt' }
  | { type: 'prompt-sending' }
  | { type: 'prompt-result'; result: PromptResult }
  /** `!`: sent again, over their budgets, to the sessions whose budget held it. */
  | { type: 'prompt-resending'; ids: readonly string[] };

// ---- the explain and type-through views (./board-session-views.ts) -------

export interface ExplainOverlay {
  kind: 'explain';
  id: string;
  name: string;
  /** The runner's answer, once it came. */
  explanation: StatusExplanation | null;
  /** Why there is none: one line. */
  error: string | null;
}

export interface TypingOverlay {
  kind: 'typing';
  id: string;
  name: string;
}

export type SessionViewAction =
  | { type: 'open-explain' }
  | { type: 'explained'; id: string; explanation: StatusExplanation }
  | { type: 'explain-failed'; id: string; message: string }
  | { type: 'open-typing' }
  | { type: 'typing-ended'; id: string; message: string; error?: boolean };

// ---- the diff review (./diff-board.ts) ------------------------------------

/** new: not sent yet; sending: on its way; sent: typed; unconfirmed: may have been typed (never sent again blind). */
export type CommentStatus = 'new' | 'sending' | 'sent' | 'unconfirmed';

export interface DiffComment extends CommentTarget {
  text: string;
  status: CommentStatus;
}

export interface DiffOverlay {
  kind: 'diff';
  id: string;
  name: string;
  /** The diff once it came, and its rows. */
  model: DiffModel | null;
  rows: DiffRows | null;
  /** Why there is none: one line. */
  error: string | null;
  cursor: number;
  /** The first row on screen, and the rows the view has, as it last reported. */
  top: number;
  height: number;
  comments: readonly DiffComment[];
  /** The comment being written and where it goes; null: no field open. */
  draft: { target: CommentTarget; text: string } | null;
  /** Esc was pressed once with unsent comments: the next one drops them. */
  closing: boolean;
  /** The key list (`?`) shows in place of the diff. */
  keys: boolean;
}

export type DiffAction =
  | { type: 'open-diff'; id: string; name: string }
  | { type: 'diff-loaded'; id: string; model: DiffModel }
  | { type: 'diff-failed'; id: string; message: string }
  | { type: 'diff-viewport'; rows: number }
  | { type: 'diff-move'; by: number }
  | { type: 'diff-page'; by: 1 | -1 }
  | { type: 'diff-jump'; to: 'first' | 'last' | 'next-hunk' | 'prev-hunk' | 'next-file' | 'prev-file' }
  | { type: 'diff-keys' }
  | { type: 'diff-comment' }
  | { type: 'diff-comment-add' }
  | { type: 'diff-comment-cancel' }
  | { type: 'diff-sending' }
  | { type: 'diff-sent'; id: string; status: 'sent' | 'unconfirmed' | 'new'; message: string; error: boolean }
  | { type: 'diff-close' };
