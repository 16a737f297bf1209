import fs from 'node:fs';
import { effectiveStatus } from '../core/host-status.js';
import type { HostRecord } from '../core/protocol.js';
import { hostFile, sessionsDir } from './paths.js';

/**
 * Writes host.json so a reader sees the old file or the new one, never half:
 * write a temporary file, rename it over the old one. `durable` also fsyncs
 * before the rename, so the change survives a crash of the machine: worth it
 * for status changes, not for the heartbeat and activity stamps.
 */
export function writeHostFile(file: string, record: HostRecord, durable = true): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    fs.writeSync(fd, JSON.stringify(record, null, 2) + '\n');
    if (durable) fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

export function readHostFile(file: string): HostRecord | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as HostRecord;
  } catch {
    return null;
  }
}

export function isPidAlive(pid: number | null): boolean {
  if (!pid || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A host record with the status a user should see (a vanished runner is `lost`). */
export interface SessionView extends HostRecord {
  runnerAlive: boolean;
}

export function viewOf(record: HostRecord, nowMs = Date.now()): SessionView {
  const runnerAlive = isPidAlive(record.runnerPid);
  return { ...record, runnerAlive, status: effectiveStatus(record, runnerAlive, nowMs) };
}

/** Every session in the home, oldest first. */
export function listSessions(home: string): SessionView[] {
  let ids: string[];
  try {
    ids = fs.readdirSync(sessionsDir(home));
  } catch {
    return [];
  }
  const now = Date.now();
  const out: SessionView[] = [];
  for (const id of ids) {
    const rec = readHostFile(hostFile(home, id));
    if (rec && rec.id === id) out.push(viewOf(rec, now));
  }
  return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

export function removeSessionDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}
