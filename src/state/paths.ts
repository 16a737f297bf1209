/** Every file and folder agent-board keeps in its home, and where a session's socket goes. */
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { ensurePrivateDir } from './home.js';

/** sun_path is 108 bytes on Linux including the terminating NUL. */
export const SOCKET_PATH_LIMIT = 107;

export const sessionsDir = (home: string) => path.join(home, 'sessions');
export const sessionDir = (home: string, id: string) => path.join(sessionsDir(home), id);
export const hostFile = (home: string, id: string) => path.join(sessionDir(home, id), 'host.json');
export const runnerLog = (home: string, id: string) => path.join(sessionDir(home, id), 'runner.log');
/** The last screen and history of an exited session, so it stays viewable. */
export const finalScreenFile = (home: string, id: string) => path.join(sessionDir(home, id), 'final-screen.ans');
/** Durable commands (prompts) a runner accepted and applied; kept across restarts. */
export const controlJournalFile = (home: string, id: string) => path.join(sessionDir(home, id), 'control-journal.jsonl');
/** What `ls` last counted of a worktree session no runner keeps fresh (src/state/worktree/worktree-read-count.ts). */
export const worktreeCountFile = (home: string, id: string) => path.join(sessionDir(home, id), 'worktree-count.json');

/** A room's chat and its files; a room is a folder made on first use (rooms/<room>/, 0700). */
export const roomsDir = (home: string) => path.join(home, 'rooms');
export const roomDir = (home: string, room: string) => path.join(roomsDir(home), room);
export const chatFile = (home: string, room: string) => path.join(roomDir(home, room), 'chat.jsonl');
/** Held (for milliseconds) by whoever appends to chat.jsonl; see src/state/file-lock.ts. */
export const chatLockFile = (home: string, room: string) => path.join(roomDir(home, room), 'chat.lock');
/** The room's settings: {maxHops}. */
export const roomConfigFile = (home: string, room: string) => path.join(roomDir(home, room), 'room.json');
/** A cache of the loop guard's state at the chat's last id, so a post need not read the whole chat. */
export const guardCacheFile = (home: string, room: string) => path.join(roomDir(home, room), 'guard.json');

/**
 * The session's socket: in its folder when the path fits the limit, else in a
 * short private per-user runtime folder, named by a hash of the home so two
 * homes never share a socket.
 */
export function socketPath(home: string, id: string, env: NodeJS.ProcessEnv = process.env): string {
  const inHome = path.join(sessionDir(home, id), 'runner.sock');
  if (Buffer.byteLength(inHome) <= SOCKET_PATH_LIMIT) return inHome;
  // Required only here: node:crypto costs a runner about 2 MiB of RSS, and most homes never get here.
  const crypto = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  const tag = crypto.createHash('sha256').update(home).digest('hex').slice(0, 10);
  return path.join(runtimeDir(env), `${tag}-${id}.sock`);
}

/** A short folder only we can use, for sockets that do not fit in the home. */
export function runtimeDir(env: NodeJS.ProcessEnv = process.env): string {
  const uid = process.getuid?.() ?? 0;
  const base = env.XDG_RUNTIME_DIR && Buffer.byteLength(env.XDG_RUNTIME_DIR) < 60 ? env.XDG_RUNTIME_DIR : os.tmpdir();
  const dir = path.join(base.length < 60 ? base : '/tmp', `agent-board-${uid}`);
  return dir;
}

export function ensureSocketDir(sock: string): void {
  ensurePrivateDir(path.dirname(sock), 'socket directory');
}
