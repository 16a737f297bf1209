/**
 * The push side's files in `<home>/web/` (docs/notifications.md): the folder is 0700, each file
 * 0600 (a VAPID private key signs pushes as this server; the subscriptions are capabilities to
 * reach a phone). Written atomically, so a crash never leaves half a file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../../state/write-errors.js';

export const webDir = (home: string) => path.join(home, 'web');
export const vapidFile = (home: string) => path.join(webDir(home), 'vapid.json');
export const pushFile = (home: string) => path.join(webDir(home), 'push.json');

/** `<home>/web/`, made 0700 (and made so again if it was looser). */
function ensureWebDir(home: string): void {
  const dir = webDir(home);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
}

/** Writes `value` as JSON to `file` (in `<home>/web/`), 0600, atomically. */
export function writePrivateJson(home: string, file: string, value: unknown): void {
  ensureWebDir(home);
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
  fs.chmodSync(file, 0o600);
}

/** The JSON in `file`, or null when there is none yet. A file that is not JSON throws (never silently replaced). */
export function readJson(file: string): unknown {
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
    throw new Error(`${file} is not JSON (${(err as Error).message}): fix or remove it`);
  }
}
