/**
 * The web server's files in the home (docs/web.md): `<home>/web/`, 0700, each file 0600. One
 * server per home: `server.json` says where it listens while it runs (written once it listens,
 * removed when it stops), and who it is (pid and the kernel's start time of that pid, so a pid
 * reused by another process is not taken for the server).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from '../../state/home.js';
import { processStartTime } from '../../state/proc-identity.js';
import { isPidAlive } from '../../state/process/alive.js';
import { writeFileAtomic, writing } from '../../state/write-errors.js';

export const webDir = (home: string) => path.join(home, 'web');
export const serverFile = (home: string) => path.join(webDir(home), 'server.json');
export const devicesFile = (home: string) => path.join(webDir(home), 'devices.json');
export const pairingFile = (home: string) => path.join(webDir(home), 'pairing.json');
export const serverLogFile = (home: string) => path.join(webDir(home), 'server.log');

/** `<home>/web/`, made 0700 or checked (refused when others can write it, as the home is). */
export function ensureWebDir(home: string): string {
  return ensurePrivateDir(webDir(home), 'web server directory');
}

/** What server.json holds. */
export interface ServerInfo {
  pid: number;
  /** /proc's start time of `pid` (src/state/proc-identity.ts): null where there is no /proc. */
  startTime: string | null;
  /** What to open: `http(s)://host:port/`. */
  url: string;
  port: number;
  host: string;
  tls: boolean;
  /** ISO time it began listening. */
  startedAt: string;
}

/** A JSON file of ours, written whole (readers never see half) and 0600. */
export function writePrivateJson(file: string, what: string, value: unknown): void {
  writing(what, file, () => writeFileAtomic(file, JSON.stringify(value, null, 2) + '\n'));
}

/**
 * A JSON file of ours, or null when it is missing (a half-made file cannot happen: writes are
 * atomic). One that is not JSON (written by hand and broken) is null too, or, with `broken:
 * 'throw'`, an error that names it: for a file whose silent replacement loses something.
 */
export function readJson(file: string, o: { broken: 'null' | 'throw' } = { broken: 'null' }): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    if (o.broken === 'throw') throw new Error(`${file} is not JSON (${(err as Error).message}): fix or remove it`);
    return null; // the same as none: the caller's next write replaces it
  }
}

function isServerInfo(v: unknown): v is ServerInfo {
  const o = v as Partial<ServerInfo> | null;
  return !!o && typeof o.pid === 'number' && typeof o.url === 'string' && typeof o.port === 'number' && typeof o.host === 'string';
}

/** The server this home's server.json names, when that process still runs; null otherwise. */
export function runningServer(home: string): ServerInfo | null {
  const info = readJson(serverFile(home));
  if (!isServerInfo(info) || !isPidAlive(info.pid)) return null;
  // The pid may have been reused since: the start time tells (where /proc has one).
  if (info.startTime !== null && processStartTime(info.pid) !== info.startTime) return null;
  return info;
}
