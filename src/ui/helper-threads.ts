/**
 * The board's helper threads yield to its main thread, which draws.
 *
 * Node runs V8's compiler and garbage-collector helpers, and libuv's file-system pool, on
 * threads of their own. Linux's fair scheduler lets a thread that wakes preempt the one running
 * on its CPU, even with another CPU idle: V8 hands a helper a compile job or a sweep while the
 * board draws a frame, and on this 2-core machine the helper then held the board's CPU for 1 to
 * 4 ms. A tenth of the frames where one row changed were slowed so, which was the board's whole
 * p99 (3 to 6 ms, against 1.3 ms at p50; bench/board.mjs). A nice value does not stop it (tried:
 * the kernel's EEVDF scheduler still let a nice-19 helper preempt), SCHED_BATCH does: a batch
 * thread never preempts on waking, yet keeps its fair share of the CPU, so nothing it does
 * starves on a busy machine (SCHED_IDLE would). Chrome runs V8's helpers at a background
 * priority for the same reason.
 *
 * The addon (src/runner/native/helper_threads.c) does the one system call; it is built with the
 * echo relay's by `npm ci`. Linux only; without the addon the board draws as it did before.
 * `AGENT_BOARD_HELPER_THREADS=normal` leaves every thread as it is (to compare, or if a kernel
 * ever treats batch threads worse than we expect).
 */
import fs from 'node:fs';
import os from 'node:os';
import type { Scheduler } from '../core/clock.js';
import { DisposableStore, type Disposable } from '../core/lifetime.js';
import { loadAddon } from '../state/native-addon.js';

interface NativeHelperThreads {
  /** 0, or the errno of sched_setscheduler(tid, SCHED_BATCH). */
  batch(tid: number): number;
}

/** Beside this module in src/ui and dist/ui, and dist/bundle (the same depth). */
const ADDON_PATH = '../../src/runner/native/build/Release/helper_threads.node';

/** What one call did: how many threads it put in the background now, or why it put none. */
export type HelperThreadsResult = { batched: number; failed: number } | { skipped: string };

let loaded: NativeHelperThreads | string | undefined;
/** Threads already put in the background (a later call does only the new ones). */
const done = new Set<number>();

function addon(): NativeHelperThreads | string {
  if (loaded === undefined) {
    const native = loadAddon<NativeHelperThreads>(import.meta.url, [ADDON_PATH]);
    loaded = typeof native === 'string' ? `the helper-threads addon ${native}` : native;
  }
  return loaded;
}

/**
 * Puts every thread of this process but the main one in SCHED_BATCH. Threads that start later
 * (libuv starts its pool on the first file read it is given) are left normal until the next call.
 */
export function backgroundHelperThreads(env: NodeJS.ProcessEnv = process.env): HelperThreadsResult {
  if (process.platform !== 'linux') return { skipped: 'Linux only' };
  if (env.AGENT_BOARD_HELPER_THREADS === 'normal') return { skipped: 'AGENT_BOARD_HELPER_THREADS=normal' };
  const native = addon();
  if (typeof native === 'string') return { skipped: native };
  let tids: number[];
  try {
    tids = fs.readdirSync('/proc/self/task').map(Number);
  } catch (err) {
    return { skipped: `/proc/self/task: ${(err as Error).message}` };
  }
  let batched = 0;
  let failed = 0;
  for (const tid of tids) {
    // The main thread's id is the process's.
    if (tid === process.pid || done.has(tid)) continue;
    const rc = native.batch(tid);
    if (rc === 0) {
      done.add(tid);
      batched++;
    } else if (rc !== os.constants.errno.ESRCH) failed++; // ESRCH: it ended since the listing
  }
  return { batched, failed };
}

/** The result as the board log's line. */
export function describeHelperThreads(r: HelperThreadsResult): string {
  return 'skipped' in r
    ? `helper threads left as they are: ${r.skipped}`
    : `helper threads in SCHED_BATCH: ${r.batched} more${r.failed > 0 ? `, ${r.failed} refused` : ''}`;
}

/**
 * The helper threads are put in the background right after the board's first frame (loading the
 * addon and a system call per thread took 2.6 ms, which the first frame need not wait for) and
 * once more this long after, for those that start with the board's first reads (libuv's pool)
 * or its first hot code (V8's compiler).
 */
export const HELPER_THREADS_AGAIN_MS = 2000;

/**
 * For the board's process (src/cli/open-board.ts, its composition root; not runBoard, which the
 * UI tests run inside the test runner): the two calls above on `scheduler`, each said in the
 * board log (the second only when it found new threads). Disposing cancels what has not run.
 */
export function backgroundHelperThreadsSoon(scheduler: Scheduler, log: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Disposable {
  const store = new DisposableStore();
  const run = (first: boolean) => {
    const r = backgroundHelperThreads(env);
    if (first || ('batched' in r && r.batched + r.failed > 0)) log(describeHelperThreads(r));
  };
  store.add(scheduler.setTimeout(() => run(true), 0));
  store.add(scheduler.setTimeout(() => run(false), HELPER_THREADS_AGAIN_MS));
  return store;
}
