/** A simulated reboot for the revive tests: every runner and every program's process group of a home killed with SIGKILL. */
import fs from 'node:fs';
import path from 'node:path';
import { isPidAlive } from '../../src/state/host-store.js';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import { waitFor } from './home.js';

/** The host records of a home, by session name. */
export function records(home: string): Map<string, HostRecord> {
  const dir = path.join(home, 'sessions');
  const out = new Map<string, HostRecord>();
  for (const id of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
    const file = path.join(dir, id, 'host.json');
    if (fs.existsSync(file)) {
      const r = JSON.parse(fs.readFileSync(file, 'utf8')) as HostRecord;
      out.set(r.name, r);
    }
  }
  return out;
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** SIGKILLs every runner and every program's process group, as a power cut would; resolves once they are gone. */
export async function powerCut(home: string): Promise<void> {
  const pids: number[] = [];
  for (const r of records(home).values()) {
    if (r.childPid) kill(-r.childPid);
    if (r.runnerPid) kill(r.runnerPid);
    pids.push(...[r.runnerPid, r.childPid].filter((p): p is number => p !== null));
  }
  await waitFor('every runner and program gone', () => pids.every((p) => !isPidAlive(p)));
}
