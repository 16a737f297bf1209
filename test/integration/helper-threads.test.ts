/**
 * The board's helper threads in SCHED_BATCH (src/ui/helper-threads.ts): read back from /proc, in
 * a real node process that calls it as the board's start does, and in the real board in tmux.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, destroyHome, makeHome, ROOT, waitFor } from '../helpers/home.js';
import { killAllTmux, TmuxServer } from '../helpers/tmux.js';

const CHILD = path.join(ROOT, 'test/fixtures/programs/helper-threads-child.mjs');
const MODULE = path.join(ROOT, 'dist/ui/helper-threads.js');
const SCHED_NORMAL = 0;
const SCHED_BATCH = 3;

/** Each thread's scheduling policy (field 41 of /proc/<pid>/task/<tid>/stat), by thread id. */
function policies(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // After the command's name, in parentheses (which may hold spaces), field 3 is the first.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(Number(tid), Number(fields[41 - 3]));
  }
  return out;
}

const running: ChildProcess[] = [];
let home: string | null = null;

afterEach(() => {
  for (const c of running.splice(0)) c.stdin?.end();
  killAllTmux();
  if (home) destroyHome(home);
  home = null;
});

/** Starts the fixture; resolves with its pid, what it printed, and its child's pid. */
async function child(env: NodeJS.ProcessEnv): Promise<{ pid: number; result: Record<string, unknown>; grandchild: number }> {
  const c = spawn(process.execPath, [CHILD, MODULE], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  running.push(c);
  const line = await new Promise<string>((resolve, reject) => {
    let buf = '';
    c.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      if (buf.includes('\n')) resolve(buf.split('\n')[0]!);
    });
    c.on('exit', (code) => reject(new Error(`the fixture exited (${code}) before it printed`)));
  });
  const { result, child: grandchild } = JSON.parse(line) as { result: Record<string, unknown>; child: number };
  return { pid: c.pid!, result, grandchild };
}

describe('helper threads', () => {
  it('puts every thread but the main one in SCHED_BATCH; a child it spawns starts normal', async () => {
    const { pid, result, grandchild } = await child({ ...process.env });
    const p = policies(pid);
    // V8's platform workers and libuv's pool at least: several threads, all but main in batch.
    expect(p.size).toBeGreaterThan(4);
    expect(result).toEqual({ batched: p.size - 1, failed: 0 });
    expect(p.get(pid)).toBe(SCHED_NORMAL);
    for (const [tid, policy] of p) if (tid !== pid) expect(policy, `thread ${tid}`).toBe(SCHED_BATCH);
    expect([...policies(grandchild).values()]).toEqual([SCHED_NORMAL]);
  });

  it('AGENT_BOARD_HELPER_THREADS=normal leaves every thread as it is', async () => {
    const { pid, result } = await child({ ...process.env, AGENT_BOARD_HELPER_THREADS: 'normal' });
    expect(result).toEqual({ skipped: 'AGENT_BOARD_HELPER_THREADS=normal' });
    expect(new Set(policies(pid).values())).toEqual(new Set([SCHED_NORMAL]));
  });

  it('the real board puts its helper threads in the background and says so in its log', async () => {
    home = makeHome('ab-helper-threads-');
    const t = TmuxServer.start({ command: ['env', `AGENT_BOARD_HOME=${home}`, 'AGENT_BOARD_NO_DEMO=1', BIN], cols: 100, rows: 30 });
    await t.waitForScreen('the empty board', (s) => s.text.includes('agent-board'));
    const board = Number(t.display('#{pane_pid}'));
    const log = path.join(home, 'board.log');
    await waitFor('the log line', () => fs.existsSync(log) && /helper threads in SCHED_BATCH: \d+ more/.test(fs.readFileSync(log, 'utf8')));
    const p = await waitFor('every helper thread in batch', () => {
      const now = policies(board);
      return [...now].every(([tid, policy]) => (tid === board ? policy === SCHED_NORMAL : policy === SCHED_BATCH)) ? now : null;
    });
    expect(p.size).toBeGreaterThan(4);
  });
});
