/**
 * A command run to its end with its output collected: the one way agent-board runs a program
 * and reads what it says (git, gh, ssh's short commands, doctor's tools, the demo agent's
 * `agent-board chat`). Never a shell: arguments go as they are. How it ended is a value, a
 * program that cannot be started (ENOENT) included; a timeout ends it through terminate().
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { Scheduler } from '../../core/clock.js';
import { MutableDisposable, type Disposable } from '../../core/lifetime.js';
import { Output, type OutputKeep } from './output.js';
import { sendSignal } from './signal.js';
import { terminate, type Termination } from './terminate.js';

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Written to its stdin, which is then closed; without it, stdin is /dev/null. */
  input?: string;
  stdout?: OutputKeep;
  stderr?: OutputKeep;
  /**
   * In a process group of its own, which a timeout or a cancel ends whole: a program's own
   * children would otherwise live on and hold its output open.
   */
  group?: boolean;
  /** How long it may run before it is ended; needs `scheduler`. */
  timeoutMs?: number;
  /** Between SIGTERM and SIGKILL when it is ended (terminate.ts KILL_GRACE_MS unless given). */
  graceMs?: number;
  /** Where the timeout and the kill's grace run (without one, a cancel is SIGTERM alone). */
  scheduler?: Scheduler;
}

export interface RunResult {
  /** Its exit code; null when a signal ended it or it never started. */
  code: number | null;
  /** The signal that ended it, or null. */
  signal: string | null;
  stdout: string;
  stderr: string;
  /** It ran past `timeoutMs` and was ended. */
  timedOut: boolean;
  /** Why it could not run (ENOENT: no such program; EACCES: not executable; a bad cwd) or a stream failed; null otherwise. */
  error: NodeJS.ErrnoException | null;
}

/** A run under way: dispose() ends it (through terminate) and `result` then says how. */
export interface Running extends Disposable {
  readonly result: Promise<RunResult>;
}

/**
 * After a program we ended exited, how long what is left in its pipes may take to be read before
 * we stop waiting for the pipes to close: a child of its own that left its process group (and
 * so outlived the end) would hold them open for as long as it runs.
 */
const OUTPUT_DRAIN_MS = 100;

/** Runs `command args` to its end: see RunOptions and RunResult. */
export function runCommand(command: string, args: readonly string[], o: RunOptions = {}): Promise<RunResult> {
  return startCommand(command, args, o).result;
}

/** Starts `command args`; its result once it ended and its output is read. */
export function startCommand(command: string, args: readonly string[], o: RunOptions = {}): Running {
  let child: ChildProcess;
  try {
    child = spawn(command, args, { cwd: o.cwd, env: o.env, stdio: [o.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], detached: o.group === true });
  } catch (err) {
    // Arguments node refuses before trying (a NUL byte, a bad option): the same value as a failed start.
    const result = Promise.resolve<RunResult>({ code: null, signal: null, stdout: '', stderr: '', timedOut: false, error: err as NodeJS.ErrnoException });
    return { result, dispose: () => undefined };
  }
  return new Run(child, o);
}

class Run implements Running {
  readonly result: Promise<RunResult>;
  private readonly stdout: Output;
  private readonly stderr: Output;
  private timedOut = false;
  private error: NodeJS.ErrnoException | null = null;
  private readonly timer = new MutableDisposable();
  private readonly ending = new MutableDisposable<Termination>();
  private done = false;
  private resolve!: (r: RunResult) => void;

  constructor(private readonly child: ChildProcess, private readonly o: RunOptions) {
    this.result = new Promise((r) => (this.resolve = r));
    this.stdout = this.collect(child.stdout!, o.stdout);
    this.stderr = this.collect(child.stderr!, o.stderr);
    if (child.stdin) {
      // A program that exits without reading its input (most do, fast) makes the write fail with EPIPE: how it ended is in `close`.
      child.stdin.on('error', () => undefined);
      child.stdin.end(o.input);
    }
    child.on('error', (err: NodeJS.ErrnoException) => {
      this.error ??= err;
      // Never started: no close may follow. Started (a kill that failed): its close still comes.
      if (child.pid === undefined) this.finish(null, null);
    });
    // 'close': it exited and its output is all read.
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => this.finish(code, signal));
    if (o.timeoutMs !== undefined && o.scheduler) {
      this.timer.value = o.scheduler.setTimeout(() => {
        this.timedOut = true;
        this.end();
      }, o.timeoutMs);
    }
  }

  dispose(): void {
    this.end();
  }

  /** Ends it (once), and once it exited stops waiting for output a child of its own may hold open. */
  private end(): void {
    if (this.done || this.ending.value) return;
    const target = this.o.group ? { group: this.child } : this.child;
    if (!this.o.scheduler) {
      // No scheduler, no timer for a kill: SIGTERM alone, as node's own kill() sends.
      sendSignal(target, 'SIGTERM');
      return;
    }
    const scheduler = this.o.scheduler;
    const t = (this.ending.value = terminate(target, { scheduler, graceMs: this.o.graceMs }));
    void t.ended.then((e) => {
      if (this.done) return;
      // Still there after SIGKILL, or not ours to signal: no close will come; its result is what it said so far.
      if (e.kind === 'still-alive' || e.kind === 'refused') return this.finish(null, null);
      // It exited; a child of its own that left its group may hold its output open for ever.
      this.timer.value = scheduler.setTimeout(() => {
        this.child.stdout?.destroy();
        this.child.stderr?.destroy();
      }, OUTPUT_DRAIN_MS);
    });
  }

  private collect(stream: Readable, keep: OutputKeep | undefined): Output {
    const out = new Output(keep);
    stream.setEncoding('utf8');
    stream.on('data', (s: string) => out.add(s));
    stream.on('error', (err: NodeJS.ErrnoException) => (this.error ??= err));
    return out;
  }

  private finish(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.done) return;
    this.done = true;
    this.timer.dispose();
    this.ending.dispose();
    this.resolve({ code, signal, stdout: this.stdout.toString(), stderr: this.stderr.toString(), timedOut: this.timedOut, error: this.error });
  }
}
