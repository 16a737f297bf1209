import { normalizeSignal } from '../../core/protocol/signals.js';
import fs from 'node:fs';
import { TERMINATE_GRACE_MS } from '../../core/session-timings.js';
import { checkSessionName } from '../../core/session-ref.js';
import { EXIT, UserError } from '../../state/errors.js';
import { writing } from '../../state/write-errors.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { isRunnerAlive, leftoverProgram, listSessions, readHostFile, type SessionView } from '../../state/host-store.js';
import { isPidAlive } from '../../state/process/alive.js';
import { sendSignal } from '../../state/process/signal.js';
import { KILL_SETTLE_MS, terminate } from '../../state/process/terminate.js';
import { waitGone, watchGone } from '../../state/process/wait-gone.js';
import { finalScreenFile, hostFile, sessionDir, socketPath } from '../../state/paths.js';
import { DisposableStore } from '../../core/lifetime.js';
import type { Time } from '../../core/clock.js';
import type { RunnerConnection } from '../link/connection.js';
import { connectSession } from './sessions.js';
import { changeRecord } from './record-setting.js';
import { startRunner } from './runner-start.js';
import { writeWiringFiles } from './wiring-place.js';
import { relaunchArgs, type ConversationOutcome } from './conversation-launch.js';
import { removeWorktree } from '../worktree/worktree-remove.js';
import { requireSandbox } from './sandbox-required.js';
import { releaseSessionObjects } from '../../state/sandbox/git-sandbox.js';

/**
 * What a user can do to a session, shared by the CLI and the board. Each
 * resolves with a result to show, or rejects with a UserError.
 */

/** After a signal that need not end the program, how long to wait to report whether it did. */
const SIGNAL_SETTLE_MS = 500;
/**
 * How long a runner asked to end its program may take to be done: the program's grace
 * (TERMINATE_GRACE_MS, then the runner sends SIGKILL), and that kill's settling, after which
 * the runner reports the exit and goes. kill waits this long for the `exit`; rm --force gives
 * the runner this long to go before it kills the runner itself.
 */
const RUNNER_END_MS = TERMINATE_GRACE_MS + KILL_SETTLE_MS;

export type KillOutcome =
  | { kind: 'exit'; code: number | null; signal: string | null; killed?: string }
  | { kind: 'still-running'; signal: string }
  | { kind: 'already-exited' }
  | { kind: 'signalled-orphan'; signal: string; pid: number };

export async function killSession(home: string, s: SessionView, time: Time, signal?: string): Promise<KillOutcome> {
  if (s.status === 'exited') return { kind: 'already-exited' };
  const sig = signal ? normalizeSignal(signal) : 'SIGTERM';
  if (s.status === 'lost') {
    // The runner is gone; its program may not be. Do what the runner would have done.
    // Only a program of this boot that is still that program: after a reboot its pid is another process's.
    const orphan = leftoverProgram(s);
    if (orphan !== null) {
      // A name no platform knows is refused here, and its error thrown.
      const sent = sendSignal({ group: orphan }, sig as NodeJS.Signals);
      if (sent.kind === 'refused') throw sent.error;
      if (sent.kind === 'sent') return { kind: 'signalled-orphan', signal: sig, pid: orphan };
      // Gone since we looked: as if it had been gone then.
    }
    throw new UserError(`${s.name} is lost and its program is not running: nothing to kill; bring it back with: agent-board revive ${s.name} (or remove it: agent-board rm ${s.name})`, EXIT.sessionUnavailable);
  }
  const conn = await connectSession(home, s, 'kill', time);
  try {
    // A plain terminate may take the whole grace period; another signal may not end it at all.
    const escalates = sig === 'SIGTERM' || sig === 'SIGKILL';
    const exit = waitForExit(conn, escalates ? RUNNER_END_MS : SIGNAL_SETTLE_MS, conn.hello.host.runnerPid ?? s.runnerPid);
    conn.send({ type: 'terminate', signal });
    const r = await exit;
    if (r.kind === 'error') throw new UserError(r.message, EXIT.usage);
    if (r.kind === 'exit') return r;
    // Out of time, or the runner died without telling: the same report either way.
    if (!escalates) return { kind: 'still-running', signal: sig };
    throw new UserError(`${s.name} did not exit; its runner may be stuck (see agent-board ls)`, EXIT.failure);
  } finally {
    conn.dispose();
  }
}

type WaitResult = { kind: 'exit'; code: number | null; signal: string | null; killed?: string } | { kind: 'error'; message: string } | { kind: 'timeout' } | { kind: 'runner-gone' };

/**
 * The runner's `exit`, an error, the deadline, or, sooner, the runner gone: once the connection
 * closed (after every frame the runner sent, an `exit` included) and its process is dead, nothing
 * more can come. Timed on the connection's scheduler.
 */
function waitForExit(conn: RunnerConnection, timeoutMs: number, runnerPid: number | null): Promise<WaitResult> {
  return new Promise((resolve) => {
    const waiting = new DisposableStore();
    const done = (r: WaitResult) => {
      waiting.dispose();
      resolve(r);
    };
    waiting.add(conn.scheduler.setTimeout(() => done({ kind: 'timeout' }), timeoutMs));
    waiting.add(
      conn.onMessage((m) => {
        if (m.type === 'exit') done({ kind: 'exit', code: m.code, signal: m.signal, ...(m.killed ? { killed: m.killed } : {}) });
        else if (m.type === 'error') done({ kind: 'error', message: m.message });
      }),
    );
    waiting.add(
      conn.onClose(() => waiting.add(watchGone(() => isPidAlive(runnerPid), () => done({ kind: 'runner-gone' }), { scheduler: conn.scheduler }))),
    );
  });
}

/**
 * Removes an exited or lost session; `force` ends a running one first. A
 * worktree session's folder and branch are deleted only when nothing would
 * be lost (worktree-remove.ts), never with `discard` here: that is
 * removeSessionReporting's, which also says what became of them.
 */
export async function removeSession(home: string, s: SessionView, time: Time, force = false): Promise<void> {
  await removeSessionReporting(home, s, time, force, false);
}

/** removeSession, and `discard` deletes a worktree and branch with their work; resolves with the worktree's one line (null without one). */
export async function removeSessionReporting(home: string, s: SessionView, time: Time, force = false, discard = false): Promise<string | null> {
  if (s.status === 'running' || s.status === 'starting') {
    if (!force) {
      throw new UserError(`${s.name} is still running; end it with: agent-board kill ${s.name} (or rm --force)`, EXIT.failure);
    }
    // Stop the runner (it terminates its program first) and wait for it to go; killed if it does not.
    if (s.runnerPid) {
      const ended = await terminate(s.runnerPid, { scheduler: time.scheduler, graceMs: RUNNER_END_MS }).ended;
      if (ended.kind === 'refused') throw ended.error;
    }
  }
  // A sandboxed worktree session's own objects (a runner killed before it moved them) go to the repository before its folder does.
  if (s.worktree && fs.existsSync(s.worktree.repo)) releaseSessionObjects(s.worktree.repo, sessionDir(home, s.id));
  // After the program is gone (nothing writes there any more), before the record goes (a failure leaves it to retry).
  const note = s.worktree ? await removeWorktree(s.worktree, discard) : null;
  writing('the session folder', sessionDir(home, s.id), () => {
    fs.rmSync(socketPath(home, s.id), { force: true });
    fs.rmSync(sessionDir(home, s.id), { recursive: true, force: true });
  }, 'remove it again');
  return note;
}

export async function renameSession(home: string, s: SessionView, name: string, time: Time): Promise<void> {
  const bad = checkSessionName(name);
  if (bad) throw new UserError(bad, EXIT.usage);
  if (listSessions(home).some((x) => x.name === name && x.id !== s.id)) {
    throw new UserError(`a session named ${name} already exists`, EXIT.usage);
  }
  // The runner owns host.json while it runs; it makes the change.
  await changeRecord(home, s, time, { msg: { type: 'rename', name }, patch: { name }, client: 'rename', gone: 'during the rename', again: 'rename it again' });
}

/** What restart did: the record it started, and what became of the agent's conversation. */
export interface Restarted {
  record: HostRecord;
  conversation: { outcome: ConversationOutcome; note: string };
}

/**
 * A new runner and program in the same session: same id, name, command and
 * cwd, a new generation; the journal stays, so prompts the old runner
 * accepted and never confirmed are reported as accepted_unknown, not typed.
 * The agent resumes its conversation where its kind can, or starts afresh
 * when it was never saved (src/client/session/conversation-launch.ts).
 * A running session's program is ended first, as kill does.
 */
export async function restartSession(home: string, s: SessionView, time: Time): Promise<Restarted> {
  // A sandboxed session whose sandbox cannot be made here is left as it is: not ended, not started unsandboxed.
  const sandbox = readHostFile(hostFile(home, s.id))?.sandbox ?? s.sandbox;
  if (sandbox) await requireSandbox(sandbox, s.cwd, time.scheduler);
  if (s.status === 'running' || s.status === 'starting') {
    await killSession(home, s, time);
  }
  // A runner killed outright may leave its program running: end it too (only that program: after a reboot its pid is another's).
  const orphan = s.status === 'lost' ? leftoverProgram(s) : null;
  // Gone meanwhile is what we wanted; refused cannot be (it is this session's program, so ours), and the new one starts either way.
  if (orphan !== null) sendSignal({ group: orphan }, 'SIGKILL');
  // The old runner by its identity (boot and start time), not its pid alone: after a reboot that pid is another's.
  // Its program ended, it goes within moments: given as long as a killed process has to be gone.
  const oldRunner = () => {
    const rec = readHostFile(hostFile(home, s.id));
    return rec !== null && isRunnerAlive(rec);
  };
  await waitGone(oldRunner, KILL_SETTLE_MS, { scheduler: time.scheduler });
  writing("the session's last screen", finalScreenFile(home, s.id), () => fs.rmSync(finalScreenFile(home, s.id), { force: true }), 'restart it again');
  // The record as the old runner left it (its conversation id, say), else the view we were given.
  const { runnerAlive: _alive, heartbeatStale: _stale, ...old } = { ...s, ...readHostFile(hostFile(home, s.id)) };
  const again = relaunchArgs(home, old, { mode: 'resume' });
  writeWiringFiles(again.launch.filesDir ?? sessionDir(home, s.id), again.launch.files);
  const now = new Date(time.clock.now()).toISOString();
  const record = await startRunner(home, {
    ...old,
    command: again.launch.command,
    args: again.launch.args,
    env: Object.keys(again.launch.env).length ? again.launch.env : undefined,
    hooksNote: again.launch.hooksNote,
    resumeId: again.conversationId,
    status: 'starting',
    updatedAt: now,
    heartbeatAt: now,
    runnerPid: null,
    runnerBootId: undefined,
    runnerStartTime: undefined,
    childPid: null,
    childStartTime: undefined,
    generation: null,
    exitCode: null,
    exitSignal: null,
    killed: undefined,
    activity: undefined,
    activitySource: undefined,
    activitySince: undefined,
  }, time);
  return { record, conversation: { outcome: again.outcome, note: again.note } };
}
