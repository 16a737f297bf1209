import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureHome } from '../state/home.js';
import { readHostFile } from '../state/host-store.js';
import { controlJournalFile, ensureSocketDir, finalScreenFile, hostFile, runnerLog, socketPath } from '../state/paths.js';
import { HostWriter } from './host-writer.js';
import { fileLogger } from './log.js';
import { listen } from './server.js';
import { Session } from './session.js';
import { RunnerWakes } from './wakes.js';
import { roomOf } from '../core/chat/chat.js';
import { realClock, realScheduler } from '../state/real-time.js';
import { keepWorktreeStatsFresh } from './worktree-live.js';
import { sessionEnv } from '../core/agents/session-env.js';

/** After the exit is told to every client, give their sockets this long to flush. */
const EXIT_LINGER_MS = 300;

/**
 * The runner process for one session (`agent-board runner <id>`). Started
 * detached by `new`, in its own session and process group, so a closed
 * terminal, a lost SSH link or a dead board never reaches it.
 */
export async function runRunner(id: string): Promise<void> {
  const home = ensureHome();
  const log = fileLogger(runnerLog(home, id));
  const rec = readHostFile(hostFile(home, id));
  if (!rec) {
    log(`no host.json for ${id}; nothing to run`);
    process.exitCode = 1;
    return;
  }
  process.on('SIGHUP', () => log('SIGHUP ignored: the session outlives its terminal'));
  process.on('SIGPIPE', () => undefined);
  process.on('uncaughtException', (err) => log(`uncaught: ${err.stack ?? err}`));
  process.on('unhandledRejection', (err) => log(`unhandled rejection: ${(err as Error)?.stack ?? err}`));

  const generation = crypto.randomUUID();
  const sock = socketPath(home, id);
  ensureSocketDir(sock);
  const host = new HostWriter(hostFile(home, id), { ...rec, runnerPid: process.pid, generation, foregroundAgent: undefined }, (err) =>
    log(`could not write host.json: ${err.message}`),
  );
  const env = sessionEnv(process.env, { id: rec.id, name: rec.name, socket: sock }, rec.env);
  // Agents answer wakes with `agent-board chat ...`: make sure they can find it (after anything of the user's).
  const binDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin');
  if (!(env.PATH ?? '').split(':').includes(binDir)) env.PATH = env.PATH ? `${env.PATH}:${binDir}` : binDir;

  let server: Awaited<ReturnType<typeof listen>> | null = null;
  let wakes: RunnerWakes | null = null;
  let worktreeStats: { dispose(): void } | null = null;
  const session = new Session({
    host,
    log,
    generation,
    env,
    finalScreenFile: finalScreenFile(home, id),
    journalFile: controlJournalFile(home, id),
    applyDelayMs: Number(process.env.AGENT_BOARD_TEST_APPLY_DELAY_MS) || 0,
    onFinished: () => {
      wakes?.stop();
      worktreeStats?.dispose();
      host.stop();
      server?.close();
      try {
        fs.unlinkSync(sock);
      } catch {
        // already gone
      }
      setTimeout(() => process.exit(0), EXIT_LINGER_MS).unref();
      log('runner finished');
    },
  });
  process.on('SIGTERM', () => {
    log('runner got SIGTERM: terminating the child');
    session.pty.terminate();
  });
  server = await listen(session, sock, log);
  wakes = new RunnerWakes(
    home,
    {
      name: () => session.record.name,
      room: roomOf(session.record),
      agent: session.record.agent,
      repaintStarved: () => session.activity.effectiveKind.repaintStarved,
      isRunning: () => session.exited === null,
      lastOutputAt: () => session.lastOutputAt,
      onData: (fn) => session.onData(fn),
      write: (data) => session.pty.write(data),
      trustedActivity: () => {
        const a = session.activity.activity;
        return a && a.source !== 'bytes' ? a.activity : null;
      },
    },
    log,
  );
  session.onActivity = () => wakes?.dispatcher.activityChanged();
  session.onPromptTyped = () => wakes?.dispatcher.noteSent();
  session.pty.onExit(() => wakes?.stop());
  wakes.start();
  // A worktree session's counts (docs/worktrees.md): at start, at turn ends, after file changes.
  if (rec.worktree) {
    worktreeStats = keepWorktreeStatsFresh({
      info: rec.worktree,
      onActivity: (fn) => session.activity.onChange((d) => fn(d.reading.activity)),
      write: (stats) => host.update({ worktreeStats: stats }),
      log,
      clock: realClock,
      scheduler: realScheduler(),
    });
  }
  host.startHeartbeat();
  log(`runner ${process.pid} serving ${sock} (generation ${generation})`);
}
