/**
 * The built-in demo's setup: a room with two scripted demo agents and a shell (`agent-board demo`,
 * and the bare board on a fresh machine).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chatIdentity, postChat, readRoom } from '../client/chat/chat-participant.js';
import type { Time } from '../core/clock.js';
import { removeSession } from '../client/session/session-actions.js';
import { DEMO_AGENT } from '../client/session/demo-program.js';
import { createSession } from '../client/session/session-create.js';
import { AGENT_KINDS } from '../core/agents/agent-kinds.js';
import { DEMO_ROOM } from '../core/board/walkthrough.js';
import { CONTINUE_COMMAND, loopGuard, roomOf } from '../core/chat/chat.js';
import { EXIT, UserError } from '../state/errors.js';
import { leftoverProgram, listSessions } from '../state/host-store.js';
import { findProgram } from '../state/process/find-program.js';
import { sendSignal } from '../state/process/signal.js';
import { readDemoMarks } from '../state/demo-state.js';
import { roomConfigFile } from '../state/paths.js';
import { readRoomConfig, writeRoomConfig } from '../state/rooms.js';

/** Low, so the loop guard shows within a minute. */
export const DEMO_MAX_HOPS = 6;
const AGENTS = [
  { name: 'alice', peer: 'bob' },
  { name: 'bob', peer: 'alice' },
] as const;
const SHELL = 'shell';
/** The demo's sessions, by name (in room demo). */
export const DEMO_SESSIONS: readonly string[] = [...AGENTS.map((a) => a.name), SHELL];
export const DEMO_KICKOFF = '@alice please say hello to bob (this is the demo: two scripted agents, no AI)';
/** The agent CLIs whose absence, on a fresh home, makes the bare board start the demo. */
export const AGENT_CLIS = ['claude', 'codex', 'gemini', 'pi'] as const;

export interface DemoSetup {
  created: string[];
  reused: string[];
  maxHops: number;
  /** The human message that starts the rally, when one was posted. */
  kickoff: number | null;
  notes: string[];
}

/**
 * The demo room with its three sessions: demo agents alice and bob (each
 * answering the other) and a shell. Running sessions of the demo are reused;
 * an exited or lost one is replaced. A rally starts with a human message when
 * an agent was (re)started.
 */
export async function setUpDemo(home: string, time: Time, cwd = process.cwd()): Promise<DemoSetup> {
  const setup: DemoSetup = { created: [], reused: [], maxHops: 0, kickoff: null, notes: [] };
  const sessions = listSessions(home);
  const wanted = DEMO_SESSIONS;
  for (const name of wanted) {
    const s = sessions.find((x) => x.name === name);
    if (s && roomOf(s) !== DEMO_ROOM) {
      throw new UserError(`a session named ${name} already exists in room ${roomOf(s)}; the demo needs the name: rename or remove it first`, EXIT.failure);
    }
  }
  if (!fs.existsSync(roomConfigFile(home, DEMO_ROOM))) writeRoomConfig(home, DEMO_ROOM, { maxHops: DEMO_MAX_HOPS });
  setup.maxHops = readRoomConfig(home, DEMO_ROOM).maxHops;

  const kind = AGENT_KINDS.demo ? 'demo' : 'shell';
  const size = { cols: process.stdout.columns, rows: process.stdout.rows };
  const ensure = async (name: string, agent: string, command: string, args: string[]): Promise<void> => {
    const s = listSessions(home).find((x) => x.name === name);
    if (s && (s.status === 'running' || s.status === 'starting')) {
      setup.reused.push(name);
      return;
    }
    if (s) {
      // Exited or lost: a fresh one. A lost session's program may still run: end it (only that program:
      // after a reboot its pid is another's). Gone meanwhile is what we wanted; refused cannot be (it is ours).
      const orphan = s.status === 'lost' ? leftoverProgram(s) : null;
      if (orphan !== null) sendSignal({ group: orphan }, 'SIGKILL');
      await removeSession(home, s, time);
    }
    await createSession(home, { name, agent, command, args, cwd, room: DEMO_ROOM, ...size }, time);
    setup.created.push(name);
  };
  for (const a of AGENTS) await ensure(a.name, kind, process.execPath, [DEMO_AGENT, '--name', a.name, '--peer', a.peer, '--room', DEMO_ROOM]);
  await ensure(SHELL, 'shell', process.env.SHELL || '/bin/sh', []);

  if (!AGENTS.some((a) => setup.created.includes(a.name))) return setup;
  let human;
  try {
    human = chatIdentity(home, process.env);
  } catch {
    human = null;
  }
  if (!human || human.kind !== 'human') {
    setup.notes.push(`not posting the first message from inside a session; from your own shell: agent-board chat post --room ${DEMO_ROOM} "${DEMO_KICKOFF}"`);
    return setup;
  }
  // A room the guard paused in an earlier demo would hold every wake: resume it first, as a human.
  if (loopGuard(readRoom(home, DEMO_ROOM), setup.maxHops).paused) await postChat(home, human, DEMO_ROOM, CONTINUE_COMMAND);
  setup.kickoff = (await postChat(home, human, DEMO_ROOM, DEMO_KICKOFF)).record.id;
  return setup;
}

/** What the demo made, and how to watch it and leave it, for the terminal. */
export function demoReport(s: DemoSetup): string {
  const lines = [
    `demo: room ${DEMO_ROOM} (loop guard after ${s.maxHops} agent messages): alice and bob are demo agents (scripted stand-ins, not AI), shell is a shell` +
      (s.created.length ? `; started ${s.created.join(', ')}` : '') +
      (s.reused.length ? `; already running: ${s.reused.join(', ')}` : ''),
    ...s.notes,
  ];
  if (s.kickoff !== null) lines.push(`posted #${s.kickoff} to ${DEMO_ROOM}: ${DEMO_KICKOFF}`);
  lines.push(
    `watch: a mention wakes an agent (its status turns busy), it reads the chat and answers the other, until the loop guard pauses the room; resume with: agent-board chat continue --room ${DEMO_ROOM}`,
    `leave: q quits the board and the sessions keep running; end the demo (its sessions and room) with: agent-board demo --stop`,
  );
  return lines.join('\n') + '\n';
}

/**
 * The bare board on a fresh machine: no session in the home, the demo never
 * run there (no room `demo`, and never stopped: demo.json), and none of the agent CLIs on PATH. Then the
 * demo is set up before the board opens. AGENT_BOARD_NO_DEMO=1 turns it off.
 */
export async function demoOnFreshMachine(home: string, time: Time): Promise<void> {
  const off = process.env.AGENT_BOARD_NO_DEMO;
  if (off && off !== '0') return;
  if (!process.stdin.isTTY || !process.stdout.isTTY) return; // the board will say it needs one
  if (listSessions(home).length > 0 || fs.existsSync(path.dirname(roomConfigFile(home, DEMO_ROOM)))) return;
  // Ended with demo --stop: it ran here, and `agent-board demo` starts it again when wanted.
  if (readDemoMarks(home).stoppedAt) return;
  if (AGENT_CLIS.some((c) => findProgram(c))) return;
  process.stdout.write(`no sessions yet and no agent CLI (${AGENT_CLIS.join(', ')}) on PATH: starting the demo (agent-board demo)\n`);
  process.stdout.write(demoReport(await setUpDemo(home, time)));
}
