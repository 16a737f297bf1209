/**
 * The push side's files in `<home>/web/` (docs/notifications.md), beside the server's own
 * (../web-home.ts: the folder 0700, each file 0600, written atomically): a VAPID private key signs
 * pushes as this server; the subscriptions are capabilities to reach a phone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensureWebDir, webDir, writePrivateJson as writeWebJson } from '../web-home.js';

export const vapidFile = (home: string) => path.join(webDir(home), 'vapid.json');
export const pushFile = (home: string) => path.join(webDir(home), 'push.json');

/** Writes `value` as JSON to `file` (in `<home>/web/`, made first), 0600, atomically. */
export function writePrivateJson(home: string, file: string, value: unknown): void {
  ensureWebDir(home);
  writeWebJson(file, `the push side's ${path.basename(file)}`, value);
}

/**
 * The JSON in `file`, or null when there is none yet. Unlike the server's own files, one that is
 * not JSON throws: replacing vapid.json silently would end every phone's subscription.
 */
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
