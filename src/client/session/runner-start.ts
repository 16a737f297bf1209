/**
 * A session's runner started: host.json written as given, the runner spawned (runner-spawn.ts:
 * a systemd user scope or detached) with the flags it is measured with, and waited for until it
 * serves; a runner that cannot write its record, or does not come up, fails the start with a line
 * that says why.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Time } from '../../core/clock.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { runnerProcessEnv } from '../../core/agents/session-env.js';
import { EXIT, UserError } from '../../state/errors.js';
import { cannotWriteError, writing } from '../../state/write-errors.js';
import { readHostFile, writeHostFile } from '../../state/host-store.js';
import { hostFile, runnerLog, socketPath } from '../../state/paths.js';
import { ptyProblem, rebuildFix, ROOT } from '../../state/this-copy.js';
import { sendSignal } from '../../state/process/signal.js';
import { sleep } from './client-time.js';
import { RunnerConnection } from '../link/connection.js';
import { spawnRunner } from './runner-spawn.js';
import { sandboxRefusal } from './sandbox-required.js';

/** How long `new` waits for its runner to come up before it reports failure. */
export const RUNNER_START_TIMEOUT_MS = 10_000;
/** How often `new` looks whether its runner serves yet. */
const RUNNER_START_POLL_MS = 20;

/**
 * The bundled runner (npm run build: scripts/bundle.mjs), which starts and idles lighter than
 * tsc's dist/runner/entry.js. This file runs from src/client (tests), dist/client or dist/bundle:
 * two folders down from the project's root each time.
 */
export const RUNNER_ENTRY = path.join(ROOT, 'dist', 'bundle', 'runner.cjs');

/**
 * V8 flags for the runner process, measured (docs/architecture.md, "Starting a session"): a
 * budget 15 times V8's default before a function is looked at for optimizing, so start-up code
 * run a few times (xterm's parser tables, the kinds' rules) never wakes TurboFan, whose code
 * pages cost an idle runner about 4 MiB of RSS; output keeps it hot enough to be optimized
 * within the first milliseconds of a burst. The second flag takes away V8's shortcut for small
 * functions (optimized on their first budget tick): at 200 columns the first few screen reads
 * run xterm's BufferLine.getTrimmedLength over 10,000 cells, and that one function alone woke
 * TurboFan (3.9 MiB of RSS in an idle 200x50 runner, none at 80x24); a hot one still gets
 * optimized, three ticks later. --no-sparkplug: no baseline-compiled copies of the functions
 * start-up ran (0.8 MiB of RSS); the parse was no slower without them (bench/parse-bytes.mjs:
 * TurboFan takes the hot loop either way). --expose-gc lets the runner give back what a burst of output
 * grew, once it is quiet (src/runner/session/memory-reclaim.ts). Smaller semi-spaces, a smaller V8 thread pool and a
 * single-threaded GC saved under 1 MiB each and cost GC time on a `cat`; --lite-mode and
 * --jitless save more but parse several times slower.
 */
export const RUNNER_NODE_FLAGS = ['--interrupt-budget=1000000', '--max-bytecode-size-for-early-opt=0', '--no-sparkplug', '--expose-gc'];

/** Writes host.json as given and starts the session's runner, detached; resolves once it serves. */
export async function startRunner(home: string, record: HostRecord, time: Time): Promise<HostRecord> {
  // The folder the session runs in may be gone (a worktree deleted by hand): say so, not a spawn ENOENT.
  // A worktree gone is 9, as for every worktree command; another folder gone, 5 (it cannot run), as revive says.
  if (!fs.existsSync(record.cwd) || !fs.statSync(record.cwd).isDirectory()) {
    throw new UserError(
      `session ${record.name} cannot start: its folder ${record.cwd} is gone${record.worktree ? ' (its worktree was deleted by hand?)' : ''}; remove it with: agent-board rm ${record.name}`,
      record.worktree ? EXIT.notARepo : EXIT.sessionUnavailable,
    );
  }
  if (!fs.existsSync(RUNNER_ENTRY)) throw new UserError(`${RUNNER_ENTRY} is missing: ${rebuildFix()}`, EXIT.failure);
  const file = hostFile(home, record.id);
  writing("the session's record", file, () => writeHostFile(file, record));
  // In a systemd user scope where that keeps it past a logout, else detached (src/client/session/runner-spawn.ts).
  const spawned = spawnRunner({ home, record, time, argv: [process.execPath, ...RUNNER_NODE_FLAGS, RUNNER_ENTRY, record.id], env: { ...runnerProcessEnv(process.env), AGENT_BOARD_HOME: home } });
  try {
    await waitForRunner(home, record.id, time);
  } finally {
    spawned.dispose();
  }
  const started = readHostFile(hostFile(home, record.id)) ?? record;
  // The runner found the sandbox could not be made and spawned nothing: the start fails with its line (exit 17).
  const refused = sandboxRefusal(started);
  if (refused) throw new UserError(`session ${started.name} did not start: ${refused}`, EXIT.cannotSandbox);
  return started;
}

async function waitForRunner(home: string, id: string, time: Time): Promise<void> {
  const deadline = time.clock.now() + RUNNER_START_TIMEOUT_MS;
  const sock = socketPath(home, id);
  while (time.clock.now() < deadline) {
    const rec = readHostFile(hostFile(home, id));
    if (rec?.status === 'exited') return; // it ran and finished already: still a session to look at
    // Asked while the record still says starting too: a runner that cannot write its record says so only here.
    if (rec !== null && rec.status !== 'lost' && fs.existsSync(sock)) {
      let host: HostRecord | null = null;
      try {
        const conn = await RunnerConnection.open(sock, { client: 'new', scheduler: time.scheduler });
        host = conn.hello.host;
        conn.dispose();
      } catch {
        // not listening yet: the next poll tries again, and the deadline reports it
      }
      if (host?.cannotWrite) unwritableStart(home, host, host.cannotWrite);
      if (host?.status === 'running' || host?.status === 'exited') return;
    }
    await sleep(time.scheduler, RUNNER_START_POLL_MS);
  }
  // A runner whose node-pty cannot load dies before it opens its log: say why, not where no log is.
  const pty = ptyProblem();
  if (pty) throw new UserError(`session ${id} did not start: node-pty cannot load (${pty.why}): ${pty.fix}`, EXIT.runnerDied);
  throw new UserError(`session ${id} did not start within ${RUNNER_START_TIMEOUT_MS / 1000} s; see ${runnerLog(home, id)}`, EXIT.runnerDied);
}

/**
 * The runner started but cannot write its record (the disk filled between our write and its
 * own): on disk the session would have no runner, so it would be lost at once. It is ended
 * (program and runner), and the start fails as if our own write had.
 */
function unwritableStart(home: string, host: HostRecord, code: string): never {
  // Gone already is what we wanted; refused cannot be: we started both a moment ago.
  if (host.childPid) sendSignal({ group: host.childPid }, 'SIGKILL');
  if (host.runnerPid) sendSignal(host.runnerPid, 'SIGKILL');
  throw cannotWriteError("the session's record", hostFile(home, host.id), code);
}
