/** `chat tail`, a subcommand of `chat` (src/cli/commands/chat.ts): the last messages of a room, then new ones as they come. */
import fs from 'node:fs';
import type { Command } from 'commander';
import { parseSince, readRoom } from '../client/chat/chat-participant.js';
import { ChatCursor } from '../state/chat-store.js';
import { chatFile } from '../state/paths.js';
import { ensureRoomDir } from '../state/rooms.js';
import { printRecords, readRoomOf } from './chat-output.js';
import { onStdoutGone } from './print.js';
import { getHome } from './context.js';

/** Without --since, tail starts with this many of the last messages, as tail(1) does. */
const TAIL_BACKLOG = 10;
/** fs.watch misses events on some filesystems (network, some containers): poll as well, slowly. */
const POLL_MS = 1000;

export function registerChatTail(chat: Command): void {
  chat
    .command('tail')
    .description('print the last messages of a room, then new ones as they come, until Ctrl-C')
    .option('--room <room>', "the room (default: the session's own room inside a session, else default)")
    .option('--since <id>', 'start after this id instead of with the last 10 messages')
    .option('--json', 'print the records as JSON, one per line')
    .action(async (o: { room?: string; since?: string; json?: boolean }) => {
      const home = getHome();
      const room = readRoomOf(home, o.room);
      const json = o.json === true;
      let sinceId: number;
      if (o.since !== undefined) {
        sinceId = parseSince(o.since);
      } else {
        const backlog = readRoom(home, room).slice(-TAIL_BACKLOG);
        printRecords(backlog, json);
        sinceId = backlog.at(-1)?.id ?? 0;
      }
      await follow(ensureRoomDir(home, room), chatFile(home, room), sinceId, json);
    });
}

/** Prints what the cursor finds whenever the room's folder changes, and every POLL_MS anyway. Never resolves. */
function follow(dir: string, file: string, sinceId: number, json: boolean): Promise<never> {
  const cursor = new ChatCursor(file, sinceId);
  const drain = () => printRecords(cursor.read(), json);
  // A reader that went away (| head) ends the tail quietly.
  onStdoutGone(() => process.exit(0));
  try {
    // The folder, not the file: the file may not exist yet.
    fs.watch(dir, { persistent: true }, drain).on('error', () => undefined);
  } catch {
    // polling alone
  }
  setInterval(drain, POLL_MS);
  drain();
  return new Promise<never>(() => undefined);
}
