/**
 * `agent-board feed --json` (hidden): the far end of the board's `--host`. It runs the
 * board's own live feed (src/client/feed/board-feed.ts) over this machine's home and prints the
 * session list, with the rooms of theirs the loop guard paused (src/client/feed/chat-feed.ts), as one
 * JSON line whenever either changes (at most every FEED_PUSH_MS), and a
 * keepalive line when nothing changed for a while, until its stdin ends (the ssh link went).
 * The lines are docs/architecture.md "The remote feed"; src/client/remote/host-feed.ts reads them.
 */
import type { Command } from 'commander';
import { LiveBoardFeed } from '../../client/feed/board-feed.js';
import { feedLine } from '../../client/remote/host-lines.js';
import { FrameThrottle } from '../../client/feed/frame-throttle.js';
import { DisposableStore, MutableDisposable } from '../../core/lifetime.js';
import { roomOf } from '../../core/chat/chat.js';
import { LiveChatFeed } from '../../client/feed/chat-feed.js';
import { realClock, realScheduler } from '../../state/real-time.js';
import { getHome } from '../context.js';
import { EXIT, UserError } from '../../state/errors.js';

/**
 * Lists go out at most this often: a busy session's last line changes every frame, and each
 * list is a few hundred bytes a session over ssh. A quarter second still reads as live.
 */
export const FEED_PUSH_MS = 250;
/** With nothing to say for this long, a keepalive line: the board takes a silent link for a dead one after 3 of them. */
export const FEED_KEEPALIVE_MS = 10_000;

export function registerFeed(program: Command): void {
  program
    .command('feed', { hidden: true })
    .description("print the session list as JSON lines whenever it changes (used by the board's --host over ssh)")
    .option('--json', 'JSON lines (the only format)')
    .action(async (o: { json?: boolean }) => {
      if (!o.json) throw new UserError('feed prints JSON lines only: agent-board feed --json', EXIT.usage);
      await feed();
    });
}

function feed(): Promise<void> {
  const home = getHome();
  const scheduler = realScheduler({ unref: true });
  const held = new DisposableStore();
  const live = held.add(new LiveBoardFeed(home, { clock: realClock, scheduler }));
  // The rooms of the sessions here, for the board's paused banner over there.
  const chat = held.add(new LiveChatFeed(home, { scheduler }));
  const keepalive = held.add(new MutableDisposable());
  const write = (line: string) => {
    process.stdout.write(line + '\n');
    keepalive.value = scheduler.setTimeout(() => write(feedLine({ type: 'alive' })), FEED_KEEPALIVE_MS);
  };
  const list = () => {
    chat.watchRooms(live.sessions.map(roomOf));
    return feedLine({ type: 'sessions', sessions: live.sessions, pausedRooms: chat.pausedRooms });
  };
  const push = held.add(new FrameThrottle(realClock, scheduler, FEED_PUSH_MS, () => write(list())));
  write(list());
  held.add(live.onChange(() => push.request()));
  held.add(chat.onChange(() => push.request()));
  held.add(live.onError((e) => process.stderr.write(`agent-board feed: ${e.detail}\n`)));
  return new Promise<void>((resolve) => {
    const end = () => {
      held.dispose();
      resolve();
    };
    // The board went (ssh closed our stdin) or cannot read us any more (EPIPE): nothing to do here.
    process.stdin.once('end', end);
    process.stdin.once('close', end);
    process.stdout.once('error', end);
    process.stdin.resume();
  });
}
