/**
 * `agent-board demo --stop`: the demo ended whole. Its sessions (alice, bob and shell in room
 * demo) are ended and removed; its room goes too (the chat of scripted messages, its settings),
 * unless a session of the user's own is in it, whose room it then is; and the home remembers
 * that the demo ran (demo.json), so the bare board does not start it again on its own.
 */
import fs from 'node:fs';
import type { Time } from '../core/clock.js';
import { DEMO_ROOM } from '../core/board/walkthrough.js';
import { roomOf } from '../core/chat/chat.js';
import { removeSession } from '../client/session/session-actions.js';
import { writeDemoMarks } from '../state/demo-state.js';
import { listSessions } from '../state/host-store.js';
import { roomDir } from '../state/paths.js';
import { DEMO_SESSIONS } from './demo-setup.js';

/** Ends the demo; one line saying what went and what stayed. */
export async function stopDemo(home: string, time: Time): Promise<string> {
  const ours = listSessions(home).filter((s) => roomOf(s) === DEMO_ROOM && DEMO_SESSIONS.includes(s.name));
  // A running one is ended first, as rm --force does (a lost one's program too).
  for (const s of ours) await removeSession(home, s, time, true);
  const others = listSessions(home).filter((s) => roomOf(s) === DEMO_ROOM).map((s) => s.name);
  const hadRoom = fs.existsSync(roomDir(home, DEMO_ROOM));
  if (others.length === 0 && hadRoom) fs.rmSync(roomDir(home, DEMO_ROOM), { recursive: true, force: true });
  writeDemoMarks(home, { stoppedAt: new Date(time.clock.now()).toISOString() });
  const removed = ours.length ? `removed ${ours.map((s) => s.name).join(', ')}` : 'no demo session was left';
  const room = others.length
    ? `room ${DEMO_ROOM} kept: ${others.join(', ')} ${others.length === 1 ? 'is' : 'are'} in it`
    : hadRoom ? `removed room ${DEMO_ROOM} and its chat` : `no room ${DEMO_ROOM}`;
  return `demo stopped: ${removed}; ${room}; agent-board demo starts it again`;
}
