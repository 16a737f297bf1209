/** Direct output's tests: a PTY as the user's terminal, held by a CLI attach or by a sleeping process, and what it ends up showing. */
import fs from 'node:fs';
import pty from 'node-pty';
import { RunnerConnection } from '../../src/client/link/connection.js';
import { parseDetachKey } from '../../src/core/terminal/detach-key.js';
import { Terminal } from '../../src/state/headless-terminal.js';
import { runnerLog, socketPath } from '../../src/state/paths.js';
import { bootId, processStartTime } from '../../src/state/proc-identity.js';
import { afterEach, beforeEach } from 'vitest';
import { BIN, cli, cliEnv, destroyHome, makeHome, waitFor } from './home.js';
import { REAL_TIME } from './real-time.js';

const ptys: pty.IPty[] = [];

/** SIGKILLs every user terminal's process a test started. */
export function killUserTerminals(): void {
  for (const p of ptys.splice(0)) {
    try {
      p.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** A fresh home for each test (given to `set`); after it, every user terminal killed and the home removed. */
export function freshHomeEachTest(set: (home: string) => void): void {
  let home = '';
  beforeEach(() => set((home = makeHome())));
  afterEach(() => {
    killUserTerminals();
    destroyHome(home);
  });
}

export const detachKey = () => {
  const k = parseDetachKey('ctrl-\\');
  if (!k.ok) throw new Error(k.message);
  return k.key;
};

/**
 * A PTY standing for the user's terminal, with everything written to it kept. Its slave side is
 * held open here until the exit is reported, as the runner's PtyHost does for a session: libuv on
 * Node 20 takes the hang-up at the last close plus a short read as the end, and dropped what the
 * attach wrote last (the restore, "detached from …") now and then on a loaded machine.
 */
export function userTerminal(file: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const p = pty.spawn(file, args, { name: 'xterm-256color', cols: 100, rows: 30, env: env as Record<string, string> });
  ptys.push(p);
  const ptsName = (p as unknown as { ptsName?: unknown }).ptsName;
  let slave: number | null = null;
  if (typeof ptsName === 'string') {
    try {
      slave = fs.openSync(ptsName, fs.constants.O_RDWR | fs.constants.O_NOCTTY);
    } catch {
      slave = null; // already gone: nothing to hold
    }
  }
  const t = {
    p,
    out: '',
    exited: new Promise<number>((r) =>
      p.onExit((e) => {
        if (slave !== null) fs.closeSync(slave);
        slave = null;
        r(e.exitCode);
      }),
    ),
  };
  p.onData((d) => (t.out += d));
  return t;
}

/** The CLI's `attach` in a PTY: its stdout is the terminal the runner may write to. */
export const attachCli = (home: string, id: string) => userTerminal(process.execPath, [BIN, 'attach', id], cliEnv(home));

/** A PTY held open by a sleeping process: the terminal an in-process attach claims as its own. */
export async function heldTerminal() {
  const t = userTerminal('sleep', ['600']);
  // Until the child has exec'd, its fds are not the terminal yet.
  await waitFor('the terminal', () => fs.readlinkSync(`/proc/${t.p.pid}/fd/1`).startsWith('/dev/pts/'));
  const identity = { path: fs.readlinkSync(`/proc/${t.p.pid}/fd/1`), pid: t.p.pid, startTime: processStartTime(t.p.pid)!, fd: 1, bootId: bootId()! };
  return Object.assign(t, { identity });
}

export const runnerText = (home: string, id: string) => fs.readFileSync(runnerLog(home, id), 'utf8');
export const runnerPidOf = (home: string) => JSON.parse(cli(home, ['ls', '--json']).stdout)[0].runnerPid as number;
export const connector = (home: string, id: string) => () => RunnerConnection.open(socketPath(home, id), { scheduler: REAL_TIME.scheduler, client: 'test' });

/** The terminal after all of `data`: which screen it is on, its mouse mode and its text. */
export async function played(data: string) {
  const term = new Terminal({ cols: 100, rows: 30, allowProposedApi: true });
  await new Promise<void>((r) => term.write(data, r));
  const buf = term.buffer.active;
  const text = Array.from({ length: 30 }, (_, y) => buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '').join('\n');
  const r = { screen: buf.type, mouse: term.modes.mouseTrackingMode, text };
  term.dispose();
  return r;
}

/** The restore sequence's start (src/core/terminal/terminal-restore.ts), last in the output. */
export const RESTORE = '\x1b[?2026l\x1b7\x1b[r\x1b[?6l\x1b8';
export const FLOOD = "printf '\\033[?1049h\\033[?1000h'; while :; do echo flood-flood-flood; done";
