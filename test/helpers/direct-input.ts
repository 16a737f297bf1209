/** Direct input's tests: a raw-mode terminal held by a sleeping process, its slave side read by the test, and the runner's fds on it. */
import fs from 'node:fs';
import { bootId, processStartTime } from '../../src/state/proc-identity.js';
import { userTerminal } from './direct-terminal.js';
import { waitFor } from './home.js';

/** A program that says it is ready, then echoes each line it reads. */
export const ECHO_LINES = 'stty -echo; echo echo-ready; while IFS= read -r l; do echo "got:$l"; done';

/**
 * A PTY in raw mode (as an attach client would leave it) held by a sleeping process whose stdin
 * and stdout are that terminal, with the test's own read-only fd on its slave side.
 */
export async function rawHeldTerminal() {
  const t = userTerminal('sh', ['-c', 'stty raw -echo; echo held-ready; exec sleep 600']);
  await waitFor('the raw terminal', () => t.out.includes('held-ready'));
  const path = fs.readlinkSync(`/proc/${t.p.pid}/fd/1`);
  const identity = { path, pid: t.p.pid, startTime: processStartTime(t.p.pid)!, fd: 1, bootId: bootId()!, inputFd: 0 };
  const slave = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NOCTTY | fs.constants.O_NONBLOCK);
  return Object.assign(t, { identity, slave });
}

/** Reads the slave side (non-blocking) until `want` has come, or 5 s. */
export async function readSlave(fd: number, want: string): Promise<string> {
  let got = '';
  const buf = Buffer.alloc(4096);
  const deadline = Date.now() + 5000;
  while (!got.includes(want) && Date.now() < deadline) {
    try {
      got += buf.subarray(0, fs.readSync(fd, buf)).toString();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  return got;
}

/** How many of `pid`'s fds are open on `path` (an fd closed between the listing and its read counts as gone). */
export function fdsOn(pid: number, path: string): number {
  let n = 0;
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === path) n++;
    } catch {
      // closed meanwhile: not held
    }
  }
  return n;
}
