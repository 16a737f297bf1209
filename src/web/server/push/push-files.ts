/**
 * The push side's files in `<home>/web/` (docs/notifications.md), beside the server's own
 * (../web-home.ts: the folder 0700, each file 0600, written atomically): a VAPID private key signs
 * pushes as this server; the subscriptions are capabilities to reach a phone.
 */
import path from 'node:path';
import { ensureWebDir, readJson as readWebJson, webDir, writePrivateJson as writeWebJson } from '../web-home.js';

export const vapidFile = (home: string) => path.join(webDir(home), 'vapid.json');
export const pushFile = (home: string) => path.join(webDir(home), 'push.json');

/** Writes `value` as JSON to `file` (in `<home>/web/`, made first), 0600, atomically. */
export function writePrivateJson(home: string, file: string, value: unknown): void {
  ensureWebDir(home);
  writeWebJson(file, `the push side's ${path.basename(file)}`, value);
}

/** The JSON in `file`, or null when there is none yet; one that is not JSON throws: replacing vapid.json silently would end every phone's subscription. */
export const readJson = (file: string): unknown => readWebJson(file, { broken: 'throw' });
