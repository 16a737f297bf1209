/**
 * The board's parts made one way for both of its faces, the terminal board (src/cli/open-board.ts)
 * and the web server (src/web/server/entry.ts): the session feed (this machine's, with the hosts of
 * config.json and --host over ssh), the chat feed over the same hosts, the actions, and how a
 * session's terminal is reached (a local socket, or ssh for a remote row).
 */
import type { Scheduler, Time } from '../../core/clock.js';
import type { TermSize } from '../../core/protocol/size.js';
import type { SessionView } from '../../state/host-store.js';
import type { BoardActions, BoardFeed, ChatFeed } from '../feed/board-api.js';
import type { RunnerConnection } from '../link/connection.js';
import { LiveBoardFeed } from '../feed/board-feed.js';
import { LiveChatFeed } from '../feed/chat-feed.js';
import { MultiHostFeed } from '../remote/remote-feed.js';
import { HostsChatFeed } from '../remote/remote-chat.js';
import { remoteConnector, sessionConnector } from '../attach/attach-session.js';
import { createBoardActions } from './board-actions.js';

export interface BoardPartsOptions {
  home: string;
  /** The other machines whose sessions are listed too (src/client/remote/host-rows.ts boardHosts). */
  hosts: readonly string[];
  /** The actions' and the connections' clock and timers. */
  time: Time;
  /** The feeds' timers: an unref'd scheduler, so a poll never holds the process by itself. */
  feedScheduler: Scheduler;
  env?: NodeJS.ProcessEnv;
  /**
   * The size every watched runner is told (the terminal board's: after an attach from a smaller
   * terminal, a session fills the board again). None (the web server): no session is resized.
   */
  viewSize?: () => TermSize;
}

export interface BoardParts {
  /** `MultiHostFeed` when there are hosts, else this machine's `LiveBoardFeed` itself. */
  feed: BoardFeed;
  /** This machine's feed, for what follows its size (setViewSize). */
  localFeed: LiveBoardFeed;
  chat: ChatFeed;
  actions: BoardActions;
  /** A connection to a session's runner for its terminal: local, or over ssh by its id there. */
  connect(s: SessionView, o?: { readOnly?: boolean }): () => Promise<RunnerConnection>;
  /** The feeds (the actions hold nothing). */
  dispose(): void;
}

export function makeBoardParts(o: BoardPartsOptions): BoardParts {
  const { home, hosts, time, feedScheduler } = o;
  const env = o.env ?? process.env;
  const localFeed = new LiveBoardFeed(home, { clock: time.clock, scheduler: feedScheduler, viewSize: o.viewSize?.() });
  // With hosts, their sessions too, each over one long-lived ssh (src/client/remote/remote-feed.ts).
  const feed = hosts.length > 0 ? new MultiHostFeed(localFeed, hosts, { home, time: { clock: time.clock, scheduler: feedScheduler } }) : localFeed;
  const localChat = new LiveChatFeed(home, { scheduler: feedScheduler });
  // A remote row's room is read over ssh while its pane is open (src/client/remote/remote-chat.ts).
  const chat = feed instanceof MultiHostFeed ? new HostsChatFeed(localChat, feedScheduler, feed) : localChat;
  const actions = o.viewSize ? createBoardActions(home, time, env, hosts, o.viewSize) : createBoardActions(home, time, env, hosts);
  return {
    feed,
    localFeed,
    chat,
    actions,
    // An attach to a remote row goes over ssh by its id there, as attach --host does.
    connect: (s, c = {}) => (s.host && s.remoteId ? remoteConnector(s.host, s.remoteId, time, c.readOnly).connect : sessionConnector(home, s, time, c.readOnly)),
    dispose() {
      feed.dispose();
      chat.dispose();
    },
  };
}
