/**
 * Who the attach client is and which terminal it writes to, for a runner that offers to write
 * the session's output there itself (docs/protocol.md, "Direct output"), and read our keys from
 * it ("Direct input"): the terminal's path as /proc shows it, our pid and start time, the
 * machine's boot id, and our stdin when it is the same terminal. Null (socket output, as before)
 * off Linux, when the output is no terminal, or with AGENT_BOARD_DIRECT=0.
 */
import fs from 'node:fs';
import type { DirectRequest } from '../../core/protocol/client-messages.js';
import { bootId, processStartTime } from '../../state/proc-identity.js';

/**
 * What a direct-output request says of the client; the attach adds what its terminal shows.
 * `inputFd`: the descriptor the attach reads its keys on, when it is the same terminal (direct input is asked for).
 */
export type TerminalIdentity = Omit<DirectRequest, 'altScreen' | 'cut' | 'input'> & { inputFd?: number };

/** The attach reads its keys on stdin (process.stdin, fd 0). */
const STDIN_FD = 0;

const linkOf = (fd: number): string | null => {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null; // not open, or no /proc: the caller does without
  }
};

/** The identity of the terminal on `stream` (the attach's output), or null when direct output is not to be asked for. */
export function terminalIdentity(stream: { isTTY?: boolean; fd?: number }, env: NodeJS.ProcessEnv = process.env): TerminalIdentity | null {
  if (process.platform !== 'linux' || env.AGENT_BOARD_DIRECT === '0') return null;
  const fd = stream.fd;
  if (!stream.isTTY || fd === undefined) return null;
  const path = linkOf(fd);
  if (path === null) return null; // no /proc to show it: socket output, which needs none of this
  const startTime = processStartTime('self');
  const boot = bootId();
  if (startTime === null || boot === null) return null;
  // AGENT_BOARD_DIRECT_INPUT=0: the runner writes the output, the client still reads the keys.
  const input = env.AGENT_BOARD_DIRECT_INPUT !== '0' && linkOf(STDIN_FD) === path ? { inputFd: STDIN_FD } : {};
  return { path, pid: process.pid, startTime, fd, bootId: boot, ...input };
}
