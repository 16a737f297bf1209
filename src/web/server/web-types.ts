/**
 * The seams of the web server (docs/web.md): what the hub (./hub) needs from the client layer and
 * from the push side (./push), and what the HTTP side (./http, ./auth) hands the hub for a socket
 * it let in. The composition root (./entry.ts) makes the real ones; tests hand in their own.
 */
import type { PushSubscriptionJson } from '../../core/web/web-protocol.js';
import type { BoardActions, BoardFeed, ChatFeed } from '../../client/feed/board-api.js';
import type { RunnerConnection } from '../../client/link/connection.js';
import type { SessionView } from '../../state/host-store.js';
import type { Time } from '../../core/clock.js';

/** A paired device, as the server knows it after checking its token (src/web/server/auth). */
export interface WebDevice {
  /** Stable id (not the token): devices.json's key, what `web devices --revoke` names. */
  id: string;
  name: string;
  /** A read-only device never types (keys, answers, prompts, comments, posts are refused). */
  readOnly: boolean;
}

/** The waiting sessions' questions, read off their screens: defined beside the terminal board's use of them. */
import type { WaitingQuestions } from '../../client/notify/waiting-questions.js';
export type { WaitingQuestions };

/** The push side as the hub drives it, per device (src/web/server/push). */
export interface PushControl {
  /** The VAPID public key the page subscribes with (base64url), or null when push is off. */
  readonly publicKey: string | null;
  subscribe(deviceId: string, sub: PushSubscriptionJson): void;
  mute(deviceId: string, sessionId: string, muted: boolean): void;
  quiet(deviceId: string, quiet: boolean): void;
  isMuted(deviceId: string, sessionId: string): boolean;
  isQuiet(deviceId: string): boolean;
}

/** Everything the hub works from. */
export interface HubDeps {
  /** The sessions of every host (LiveBoardFeed, or MultiHostFeed with config.json's hosts). */
  feed: BoardFeed;
  chat: ChatFeed;
  /**
   * A chat feed of its own for one page's room (the hub disposes it): two pages may follow two
   * rooms. Absent: pages share `chat`, which holds one open room at a time.
   */
  roomChat?(): ChatFeed;
  /** Prompts (exactly once, with the page's command ids), diffs, posts: the board's own actions. */
  actions: BoardActions;
  /** A connection to a session's runner for its terminal (local socket, or over ssh for a remote row). */
  connect(s: SessionView, o: { readOnly: boolean }): Promise<RunnerConnection>;
  questions: WaitingQuestions;
  push: PushControl;
  time: Time;
  /** For the `welcome` frame. */
  version: string;
}
