import { chatIdentity, formatRecord, roomFor } from '../client/chat/chat-participant.js';
import { DEFAULT_ROOM, type ChatRecord } from '../core/chat/chat.js';
import { printOut } from './print.js';

/** Shared by the chat commands: which room to read, and how records are printed. */

/** The room to read: the one given, else the session's own inside a session, else default. */
export function readRoomOf(home: string, room: string | undefined): string {
  if (room !== undefined || !process.env.AGENT_BOARD_SESSION) return roomFor({ room: DEFAULT_ROOM }, room);
  return roomFor(chatIdentity(home, process.env), room);
}

/** `#id hh:mm from: text` lines, or with json the records as they are stored, one a line. */
export function printRecords(records: readonly ChatRecord[], json: boolean): void {
  const out = records.map((r) => (json ? JSON.stringify(r) : formatRecord(r))).join('\n');
  if (out) printOut(out + '\n');
}
