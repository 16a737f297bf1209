/** `agent-board chat`: post to and read a room's chat, as an agent inside a session or as a human outside. */
import type { Command } from 'commander';
import {
  chatIdentity, formatRecord, parseSince, postChat, readerName, readRoom, roomFor,
} from '../../client/chat/chat-participant.js';
import { CONTINUE_COMMAND, loopGuard } from '../../core/chat/chat.js';
import type { PostResult } from '../../state/chat-store.js';
import { EXIT, UserError } from '../../state/errors.js';
import { listRooms, readRoomConfig, roomMembers, writeRoomConfig } from '../../state/rooms.js';
import { printRecords, readRoomOf } from '../chat-output.js';
import { getHome } from '../context.js';
import { textArgument } from '../text-arg.js';
import { registerChatTail } from '../chat-tail.js';
import { printErr, printOut } from '../print.js';

interface RoomOpt { room?: string }
interface PostOpts extends RoomOpt { from?: string; as?: string; human?: boolean }
interface ReadOpts extends RoomOpt { since?: string; mentionsOnly?: boolean; as?: string; json?: boolean }

export function registerChat(program: Command): void {
  const chat = program
    .command('chat')
    .description("talk in a room's chat: agents (inside a session) and humans; @name mentions wake agents");

  chat
    .command('post')
    .description('post a message (inside a session: as that session, an agent; outside: as a human)')
    .argument('[text...]', 'the message; - reads it from standard input')
    .option('--room <room>', "the room (default: the session's own room inside a session, else default)")
    .option('--from <name>', 'outside a session: the display name of the human posting (default human)')
    .option('--as <name>', 'the same as --from')
    .option('--human', 'post as a human (the default outside a session; refused inside one)')
    .action(async (words: string[], o: PostOpts) => {
      const home = getHome();
      const who = chatIdentity(home, process.env, { as: o.from ?? o.as, human: o.human });
      const room = roomFor(who, o.room);
      const text = await textArgument(words, 'post', (t) => !t.trim());
      report(room, await postChat(home, who, room, text));
    });

  chat
    .command('read')
    .description('print the messages of a room: #id hh:mm from: text')
    .option('--room <room>', "the room (default: the session's own room inside a session, else default)")
    .option('--since <id>', 'only messages after this id')
    .option('--mentions-only', 'only messages that mention the reader (the session; outside one, see --as) or @all')
    .option('--as <name>', 'outside a session: whose mentions --mentions-only shows')
    .option('--json', 'print the records as JSON, one per line')
    .action((o: ReadOpts) => {
      const home = getHome();
      const room = readRoomOf(home, o.room);
      const sinceId = parseSince(o.since);
      const reader = readerName(home, process.env, o.as);
      if (o.mentionsOnly && reader === undefined) {
        throw new UserError('--mentions-only needs a reader: run it inside a session, or give --as NAME', EXIT.usage);
      }
      printRecords(readRoom(home, room, { sinceId, mentionsOf: o.mentionsOnly ? reader : undefined }), o.json === true);
    });

  chat
    .command('continue')
    .description("resume a room's wakes after the loop guard paused them (posts /continue as a human)")
    .option('--room <room>', 'the room (default: default)')
    .option('--from <name>', 'the display name of the human resuming (default human)')
    .action(async (o: RoomOpt & { from?: string }) => {
      const home = getHome();
      if (process.env.AGENT_BOARD_SESSION) {
        throw new UserError('only a human can resume a room; run agent-board chat continue outside a session', EXIT.usage);
      }
      const who = chatIdentity(home, process.env, { as: o.from });
      const room = roomFor(who, o.room);
      const r = await postChat(home, who, room, CONTINUE_COMMAND);
      if (!r.system) printOut(`room ${room} was not paused (posted #${r.record.id})\n`);
      else printOut(formatRecord(r.system) + '\n');
    });

  chat
    .command('config')
    .description("show or change a room's settings")
    .option('--room <room>', "the room (default: the session's own room inside a session, else default)")
    .option('--max-hops <n>', 'agent messages without a human before the loop guard pauses wakes (4-50, default 30)')
    .action((o: RoomOpt & { maxHops?: string }) => {
      const home = getHome();
      const room = readRoomOf(home, o.room);
      if (o.maxHops !== undefined) {
        if (!/^\d+$/.test(o.maxHops)) throw new UserError(`--max-hops must be a whole number from 4 to 50, not "${o.maxHops}"`, EXIT.usage);
        writeRoomConfig(home, room, { maxHops: Number(o.maxHops) });
      }
      printOut(`room ${room}: max hops ${readRoomConfig(home, room).maxHops}\n`);
    });

  chat
    .command('rooms')
    .description('list the rooms: members, last message id, and whether the loop guard paused them')
    .action(() => {
      const home = getHome();
      for (const room of listRooms(home)) {
        const records = readRoom(home, room);
        const g = loopGuard(records, readRoomConfig(home, room).maxHops);
        const members = roomMembers(home, room).join(', ') || '(no sessions)';
        const state = g.paused ? 'paused' : `${g.hops} ${g.hops === 1 ? 'hop' : 'hops'}`;
        printOut(`${room}  #${records.at(-1)?.id ?? 0}  ${state}  ${members}\n`);
      }
    });

  registerChatTail(chat);
  chat.commands.forEach((c) => c.exitOverride());
}

function report(room: string, r: PostResult): void {
  printOut(`posted #${r.record.id} to ${room}\n`);
  if (r.system) printOut(formatRecord(r.system) + '\n');
  else if (r.guard.paused) {
    printErr(`note: room ${room} is paused by the loop guard: the message is kept, but nobody is woken until a human posts ${CONTINUE_COMMAND}\n`);
  }
}
