/**
 * Who the attach client is and which terminal it writes to, for a runner that offers to write
 * the session's output there itself (docs/protocol.md, "Direct output"): the terminal's path as
 * /proc shows it, our pid and start time, the machine's boot id. Null (socket output, as before)
 * off Linux, when the output is no terminal, or with AGENT_BOARD_DIRECT=0.
 */
import fs from 'node:fs';
import type { DirectRequest } from '../core/protocol/protocol.js';
import { bootId, processStartTime } from '../state/proc-identity.js';

/** What a direct-output request says of the client; the attach adds what its terminal shows. */
export type TerminalIdentity = Omit<DirectRequest, 'altScreen' | 'cut'>;

/** The identity of the terminal on `stream` (the attach's output), or null when direct output is not to be asked for. */
export function terminalIdentity(stream: { isTTY?: boolean; fd?: number }, env: NodeJS.ProcessEnv = process.env): TerminalIdentity | null {
  if (process.platform !== 'linux' || env.AGENT_BOARD_DIRECT === '0') return null;
  const fd = stream.fd;
  if (!stream.isTTY || fd === undefined) return null;
  let path: string;
  try {
    path = fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null; // no /proc to show it: socket output, which needs none of this
  }
  const startTime = processStartTime('self');
  const boot = bootId();
  if (startTime === null || boot === null) return null;
  return { path, pid: process.pid, startTime, fd, bootId: boot };
}
