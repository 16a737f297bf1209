/**
 * `agent-board feed --json` (hidden): the far end of the board's `--host`. It runs the
 * board's own live feed (src/client/board-feed.ts) over this machine's home and prints the
 * session list as one JSON line whenever it changes (at most every FEED_PUSH_MS), and a
 * keepalive line when nothing changed for a while, until its stdin ends (the ssh link went).
 * The lines are docs/architecture.md "The remote feed"; src/client/host-feed.ts reads them.
 */
import type { Command } from 'commander';
import { LiveBoardFeed } from '../../client/board-feed.js';
import { feedLine } from '../../client/host-lines.js';
import { FrameThrottle } from '../../client/frame-throttle.js';
import { MutableDisposable } from '../../core/lifetime.js';
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
  const scheduler = realScheduler({ unref: true });
  const live = new LiveBoardFeed(getHome(), { clock: realClock, scheduler });
  const keepalive = new MutableDisposable();
  const write = (line: string) => {
    process.stdout.write(line + '\n');
    keepalive.value = scheduler.setTimeout(() => write(feedLine({ type: 'alive' })), FEED_KEEPALIVE_MS);
  };
  const push = new FrameThrottle(realClock, scheduler, FEED_PUSH_MS, () => write(feedLine({ type: 'sessions', sessions: live.sessions })));
  write(feedLine({ type: 'sessions', sessions: live.sessions }));
  const sub = live.subscribe(() => push.request());
  const errors = live.onError((e) => process.stderr.write(`agent-board feed: ${e.detail}\n`));
  return new Promise<void>((resolve) => {
    const end = () => {
      sub.dispose();
      errors.dispose();
      push.dispose();
      keepalive.dispose();
      live.dispose();
      resolve();
    };
    // The board went (ssh closed our stdin) or cannot read us any more (EPIPE): nothing to do here.
    process.stdin.once('end', end);
    process.stdin.once('close', end);
    process.stdout.once('error', end);
    process.stdin.resume();
  });
}
