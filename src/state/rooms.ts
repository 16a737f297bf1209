/** The chat rooms on disk: their folders, their settings (room.json) and who is in each. */
import fs from 'node:fs';
import { checkMaxHops, checkRoomName, DEFAULT_MAX_HOPS, DEFAULT_ROOM, MAX_MAX_HOPS, MIN_MAX_HOPS, roomOf } from '../core/chat/chat.js';
import { EXIT, UserError } from './errors.js';
import { ensurePrivateDir } from './home.js';
import { listSessions } from './host-store.js';
import { roomConfigFile, roomDir, roomsDir } from './paths.js';
import { writeFileAtomic, writing } from './write-errors.js';

/** A room's settings (rooms/<room>/room.json). */
export interface RoomConfig {
  maxHops: number;
}

/** A room name given by a user, checked (exit 2), or the default. */
export function checkedRoom(room: string | undefined): string {
  const r = room ?? DEFAULT_ROOM;
  const bad = checkRoomName(r);
  if (bad) throw new UserError(bad, EXIT.usage);
  return r;
}

/** The room's folder, made private (0700) on first use. */
export function ensureRoomDir(home: string, room: string): string {
  ensurePrivateDir(roomsDir(home), 'rooms directory');
  return ensurePrivateDir(roomDir(home, room), 'room directory');
}

/**
 * The room's settings; a missing or unreadable room.json means the defaults,
 * and a hand-edited maxHops out of range is brought into it rather than
 * letting one bad file switch the guard off.
 */
export function readRoomConfig(home: string, room: string): RoomConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(roomConfigFile(home, room), 'utf8'));
  } catch {
    return { maxHops: DEFAULT_MAX_HOPS }; // missing or unreadable: the defaults, as above
  }
  const n = (raw as { maxHops?: unknown } | null)?.maxHops;
  if (typeof n !== 'number' || !Number.isFinite(n)) return { maxHops: DEFAULT_MAX_HOPS };
  return { maxHops: Math.min(MAX_MAX_HOPS, Math.max(MIN_MAX_HOPS, Math.round(n))) };
}

export const roomMaxHops = (home: string, room: string): number => readRoomConfig(home, room).maxHops;

/** Writes room.json atomically (0600). */
export function writeRoomConfig(home: string, room: string, config: RoomConfig): void {
  const bad = checkMaxHops(config.maxHops);
  if (bad) throw new UserError(bad, EXIT.usage);
  const file = roomConfigFile(home, room);
  writing(`room ${room}'s settings`, file, () => {
    ensureRoomDir(home, room);
    writeFileAtomic(file, JSON.stringify(config) + '\n');
  }, 'set it again');
}

/** The names of the sessions in `room` (exited ones too: a mention is a fact of the text). */
export function roomMembers(home: string, room: string): string[] {
  return listSessions(home).filter((s) => roomOf(s) === room).map((s) => s.name);
}

/** Every room with a folder or a session in it, sorted. */
export function listRooms(home: string): string[] {
  const rooms = new Set(listSessions(home).map(roomOf));
  try {
    for (const d of fs.readdirSync(roomsDir(home))) if (checkRoomName(d) === null) rooms.add(d);
  } catch {
    // no rooms folder yet
  }
  return [...rooms].sort();
}
