import crypto from 'node:crypto';
import fs from 'node:fs';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import { writeHostFile } from '../../src/state/host-store.js';
import { hostFile, sessionDir } from '../../src/state/paths.js';

/** A session's record without a runner: enough to be a room member and a chat identity. Returns its id. */
export function fakeSession(home: string, name: string, room?: string): string {
  const id = crypto.randomBytes(4).toString('hex');
  fs.mkdirSync(sessionDir(home, id), { recursive: true, mode: 0o700 });
  const now = new Date().toISOString();
  const rec: HostRecord = {
    id, name, ...(room ? { room } : {}), agent: 'shell', command: 'sh', args: [], cwd: '/', createdAt: now, updatedAt: now, heartbeatAt: now,
    lastOutputAt: null, runnerPid: null, childPid: null, generation: null, status: 'exited', cols: 80, rows: 24, exitCode: 0, exitSignal: null, scrollback: 0,
  };
  writeHostFile(hostFile(home, id), rec);
  return id;
}
