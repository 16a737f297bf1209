import type { KillOutcome } from '../client/session-actions.js';
import type { HostRecord } from '../core/protocol.js';
import type { SessionView } from '../state/host-store.js';

/**
 * What the board needs from the outside world, as interfaces: the real ones
 * talk to runners (src/client/board-feed.ts, src/ui/real-actions.ts), tests
 * hand in fakes through context.
 */

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

/** Live list of sessions and the preview, kept current by pushes from the runners. */
export interface BoardFeed {
  /** Every session in the home, oldest first, with the status a user should see. */
  readonly sessions: readonly SessionView[];
  /** The preview of the session last passed to setPreview, once it has arrived. */
  readonly preview: PreviewScreen | null;
  /** Called after any change to sessions or preview (coalesced); returns an unsubscribe. */
  subscribe(fn: () => void): () => void;
  /** Which session the preview follows (null: none). */
  setPreview(id: string | null): void;
  dispose(): void;
}

export interface NewSessionInput {
  name?: string;
  command: string;
  args: string[];
  cwd: string;
}

/** What the board can do to sessions. Each rejects with a UserError whose message is one line for the footer. */
export interface BoardActions {
  create(input: NewSessionInput): Promise<HostRecord>;
  kill(s: SessionView): Promise<KillOutcome>;
  remove(s: SessionView): Promise<void>;
  rename(s: SessionView, name: string): Promise<void>;
}
