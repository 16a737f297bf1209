/**
 * The runner process for one session (`agent-board runner <id>`), and its composition root: the
 * one place that makes the real clock and timers and hands them down. Started detached by `new`,
 * in its own session and process group, so a closed terminal, a lost SSH link or a dead board
 * never reaches it. The socket listens before the program is spawned: a runner that cannot be
 * reached starts nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sessionEnv } from '../core/agents/session-env.js';
import { roomOf } from '../core/chat/chat.js';
import { DisposableStore, toDisposable } from '../core/lifetime.js';
import { ensureHome } from '../state/home.js';
import { closeInheritedDescriptors } from '../state/process/inherited-fds.js';
import { readAllRecords, readHostFile, writeHostFile } from '../state/host-store.js';
import { readUserConfig } from '../state/config.js';
import { localDay, msToNextLocalDay } from '../state/local-day.js';
import { SessionBudget } from './session/session-budget.js';
import { bootId, processStartTime } from '../state/proc-identity.js';
import { controlJournalFile, ensureSocketDir, finalScreenFile, hostFile, runnerLog, sessionDir, socketPath } from '../state/paths.js';
import { realClock, realScheduler } from '../state/real-time.js';
import { fileLogger } from './log.js';
import { listen, serve, type RunnerServer } from './clients/server.js';
import { MemoryReclaim } from './session/memory-reclaim.js';
import { Session } from './session/session.js';
import { RunnerWakes } from './wakes/wakes.js';
import { limitSeen } from '../core/usage/limits/index.js';
import { limitPattern } from './session/limit-pattern.js';
import { mergeDenial } from '../core/sandbox/denials.js';
import { isoTime } from '../core/iso-time.js';
import { makeSandbox } from './sandbox/sandbox-make.js';
import type { PreparedSandbox } from './sandbox/sandbox-launch.js';

/** After the exit is told to every client, give their sockets this long to flush. */
const EXIT_LINGER_MS = 300;

/**
 * A random version 4 UUID naming this runner instance, from the kernel's generator: node:crypto
 * would cost every runner about 2 MiB of RSS (OpenSSL) for these 16 bytes.
 */
function newGeneration(): string {
  const b = Buffer.alloc(16);
  const fd = fs.openSync('/dev/urandom', 'r');
  try {
    fs.readSync(fd, b, 0, 16, null);
  } finally {
    fs.closeSync(fd);
  }
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export async function runRunner(id: string): Promise<void> {
  const clock = realClock;
  const scheduler = realScheduler();
  const home = ensureHome();
  const log = fileLogger(runnerLog(home, id), clock);
  // Before anything is spawned: what the runner was started with beyond stdio would reach the program (inherited-fds.ts).
  const inherited = closeInheritedDescriptors();
  if (inherited.length) log(`closed ${inherited.length} inherited descriptor(s) (${inherited.join(', ')}): the program gets its PTY alone`);
  const rec = readHostFile(hostFile(home, id));
  if (!rec) {
    log(`no host.json for ${id}; nothing to run`);
    process.exitCode = 1;
    return;
  }
  // Process-wide handlers live as long as the process: they are the runner's last word, not a resource it lets go.
  process.on('SIGHUP', () => log('SIGHUP ignored: the session outlives its terminal'));
  process.on('SIGPIPE', () => undefined);
  process.on('uncaughtException', (err) => log(`uncaught: ${err.stack ?? String(err)}`));
  process.on('unhandledRejection', (err) => log(`unhandled rejection: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));

  const generation = newGeneration();
  const sock = socketPath(home, id);
  // Everything the runner holds, released by its one dispose() (last added first), at the end.
  const runner = new DisposableStore();
  // What serves the session while its program runs: released, inside `runner`, the moment the
  // session is finished (no new client, the wakes, the heartbeat and the counts stop), while the
  // session itself stays for EXIT_LINGER_MS so its clients' sockets flush the exit and goodbye.
  const serving = runner.add(new DisposableStore());

  // Listen first: a socket that cannot be served ends the runner before any program starts.
  let session: Session | null = null;
  let server: RunnerServer;
  try {
    ensureSocketDir(sock);
    server = await listen(sock, (socket) => (session ? serve(session, socket, log) : socket.destroy()), log);
  } catch (err) {
    log(`cannot listen on ${sock}: ${(err as Error).message}; the session's program was not started`);
    process.exitCode = 1;
    return;
  }
  serving.add(server);
  serving.add(
    toDisposable(() => {
      try {
        fs.unlinkSync(sock);
      } catch {
        // Already gone (removed by `rm`): nothing left to clean.
      }
    }),
  );

  const env = sessionEnv(process.env, { id: rec.id, name: rec.name, socket: sock }, rec.env);
  // The program calls agent-board back by name: its hooks, its MCP server, the wakes' `agent-board
  // chat ...`. Our bin/ goes first on its PATH, so each reaches this copy (the one this runner
  // belongs to, an installed one or a clone), not another agent-board earlier on the user's PATH.
  // bin/ holds the command alone, so nothing else of the user's is shadowed.
  const binDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin');
  const rest = (env.PATH ?? '').split(':').filter((d) => d !== binDir).join(':');
  env.PATH = rest ? `${binDir}:${rest}` : binDir;

  // A sandboxed session (docs/sandbox.md) runs inside one or not at all.
  let sandbox: PreparedSandbox | null = null;
  // A refused connection goes into host.json once the session is there to write it (the proxy starts before the program).
  let keepDenial = (_host: string, _port: number): void => undefined;
  if (rec.sandbox) {
    const denied = (host: string, port: number) => keepDenial(host, port);
    const made = await makeSandbox({ ...rec, sandbox: rec.sandbox }, { home, id, sock, env, log, scheduler, denied, installRoot: path.dirname(binDir) });
    if (!made.ok) {
      log(`${made.line}; the session's program was not started`);
      writeHostFile(hostFile(home, id), { ...rec, status: 'exited', exitCode: null, childPid: null, previewLine: made.line, runnerPid: process.pid });
      runner.dispose();
      process.exitCode = 1;
      return;
    }
    sandbox = runner.add(made.sandbox);
  }
  const programEnv = sandbox?.env ?? env;

  const s: Session = (session = runner.add(new Session({
    hostFile: hostFile(home, id),
    // The pid with the boot and the start time: a reused pid (after a reboot) is not taken for this runner (host-store.ts).
    record: { ...rec, runnerPid: process.pid, runnerBootId: bootId() ?? undefined, runnerStartTime: processStartTime('self') ?? undefined, generation, foregroundAgent: undefined, killed: undefined },
    log,
    generation,
    env: programEnv,
    ...(sandbox ? { sandbox } : {}),
    finalScreenFile: finalScreenFile(home, id),
    journalFile: controlJournalFile(home, id),
    clock,
    scheduler,
    applyDelayMs: Number(process.env.AGENT_BOARD_TEST_APPLY_DELAY_MS) || 0,
    // Test-only: a faster heartbeat, so a test sees a runner write again within a second of the disk having room.
    heartbeatMs: Number(process.env.AGENT_BOARD_TEST_HEARTBEAT_MS) || undefined,
    // The agents' usage limits (docs/usage.md); test-only: a pattern of the test's fixture program, and a shorter delay after a reset.
    limits: {
      detect: process.env.AGENT_BOARD_TEST_LIMIT_RE ? limitPattern(process.env.AGENT_BOARD_TEST_LIMIT_RE) : limitSeen,
      ...(process.env.AGENT_BOARD_TEST_RESUME_DELAY_MS !== undefined ? { delayMaxMs: Number(process.env.AGENT_BOARD_TEST_RESUME_DELAY_MS) || 0 } : {}),
    },
  })));
  keepDenial = (host, port) => s.host.update({ sandboxDenied: mergeDenial(s.record.sandboxDenied, host, port, isoTime(clock.now())) });
  runner.add(
    s.onFinished(() => {
      runner.release(serving);
      log('runner finished');
      // The linger is the runner's too: one dispose() then releases the session (its clients, the PTY) and all the rest.
      // Unref'd: a runner with nothing left to flush need not wait for it.
      const linger = realScheduler({ unref: true }).setTimeout(() => {
        runner.dispose();
        process.exit(0);
      }, EXIT_LINGER_MS);
      runner.add(linger);
    }),
  );
  process.on('SIGTERM', () => {
    log('runner got SIGTERM: terminating the child');
    s.terminate();
  });
  // Budgets (docs/usage.md): a spent one holds new prompts (send, the board, the web page) and wakes, never keys.
  const budget = serving.add(
    new SessionBudget({
      record: () => s.record,
      update: (patch) => s.host.update(patch),
      budgets: () => readUserConfig().config.budgets,
      records: () => readAllRecords(home),
      today: localDay,
      msToNextDay: msToNextLocalDay,
      clock,
      scheduler,
      log,
      refreshMs: Number(process.env.AGENT_BOARD_TEST_BUDGET_REFRESH_MS) || undefined,
    }),
  );
  budget.start();
  s.promptsHeld = () => budget.held();
  const wakes = serving.add(
    new RunnerWakes({
      home,
      session: {
        name: () => s.record.name,
        room: roomOf(s.record),
        agent: s.record.agent,
        repaintStarved: () => s.activity.effectiveKind.repaintStarved,
        isRunning: () => s.exited === null,
        lastOutputAt: () => s.lastOutputAt,
        onData: (fn) => s.onData(fn),
        write: (data) => s.pty.write(data),
        trustedActivity: () => {
          const a = s.activity.activity;
          return a && a.source !== 'bytes' ? a.activity : null;
        },
        promptsHeld: () => budget.held(),
      },
      budgetRecheckMs: Number(process.env.AGENT_BOARD_BUDGET_RECHECK_MS) || undefined,
      log,
      clock,
      scheduler,
    }),
  );
  // The runner starts with --expose-gc (src/client/session/runner-start.ts); started another way, it has no gc and keeps what it grew.
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    const reclaim = serving.add(
      new MemoryReclaim({ clock, scheduler, lastOutputAt: () => s.lastOutputAt, heapBytes: () => process.memoryUsage().heapTotal, collect: gc, log }),
    );
    serving.add(s.onData(() => reclaim.output()));
  }
  serving.add(s.onActivity(() => wakes.dispatcher.activityChanged()));
  serving.add(s.onPromptTyped(() => wakes.dispatcher.noteSent()));
  serving.add(s.pty.onExit(() => serving.release(wakes)));
  wakes.start();
  // The activity's changes as the keepers below take them (a turn's start and end).
  const onActivity = (fn: (activity: string) => void) => s.activity.onChange((d) => fn(d.reading.activity));
  // A worktree session's counts (docs/worktrees.md): at start, at turn ends, after file changes.
  // Loaded only for a worktree session: the git and file-watch modules cost an idle shell memory.
  if (rec.worktree) {
    const { keepWorktreeStatsFresh } = await import('./session/worktree-live.js');
    serving.add(
      keepWorktreeStatsFresh({
        info: rec.worktree,
        onActivity,
        write: (stats) => s.host.update({ worktreeStats: stats }),
        log,
        clock,
        scheduler,
        place: sessionDir(home, id),
      }),
    );
  }
  // What the agent spent, read from its transcript (docs/usage.md). Loaded only for a kind with a
  // reader: a plain shell's runner carries none of it. A shell's foreground agent is not followed.
  const kind = rec.agent;
  const { hasUsageReader, usageEnv } = await import('../state/usage/usage-source.js');
  const transcriptEnv = usageEnv(programEnv, process.env);
  if (hasUsageReader(kind, transcriptEnv)) {
    const { keepUsageFresh } = await import('./usage/usage-live.js');
    const write = (usage: NonNullable<typeof s.record.usage>) => {
      s.host.update({ usage });
      budget.verdict(); // the 80 % mark and the hold as soon as the spending is known, not at the next refresh
    };
    serving.add(keepUsageFresh({ kind, record: () => s.record, env: transcriptEnv, write, onActivity, log, clock, scheduler }));
  }
  // Gemini's empty twins of the conversation, removed before another Gemini start in the project
  // deletes the conversation with them (src/core/agents/gemini-twins.ts, docs/agents.md).
  if (kind === 'gemini') {
    const [{ GeminiTwinGuard }, { sweepGeminiTwins, watchChats }] = await Promise.all([import('./session/gemini-twin-guard.js'), import('../state/usage/gemini-twins.js')]);
    const watch = (dir: string, fn: () => void) => watchChats(dir, fn, log);
    serving.add(new GeminiTwinGuard({ record: () => s.record, env: programEnv, onActivity, sweep: sweepGeminiTwins, watch, log, clock, scheduler })).start();
  }
  // The heartbeat stops with `serving` (the session's own store releases the writer again, at the end).
  serving.add(s.host);
  s.host.startHeartbeat();
  log(`runner ${process.pid} serving ${sock} (generation ${generation})`);
}
