/**
 * The server's VAPID keys (RFC 8292): the key pair a push service knows this server by. Made on the
 * first start with web-push's generateVAPIDKeys and kept in `<home>/web/vapid.json` (0600): a page
 * subscribes with the public key, and a new pair would orphan every subscription, so it is kept
 * across restarts.
 */
import webpush from 'web-push';
import { readJson, vapidFile, writePrivateJson } from './push-files.js';

export interface VapidKeys {
  /** base64url, the uncompressed P-256 point (what PushManager.subscribe's applicationServerKey takes). */
  publicKey: string;
  privateKey: string;
  /** Who runs this server, for the push service (a mailto: or https: URL). */
  subject: string;
}

/**
 * The `sub` claim. Push services want a way to reach whoever sends; a self-hosted board has no
 * public address, and this placeholder is what web-push's own examples accept.
 */
export const DEFAULT_VAPID_SUBJECT = 'mailto:agent-board@localhost';

function isKeys(v: unknown): v is VapidKeys {
  const o = v as Partial<VapidKeys> | null;
  return typeof o?.publicKey === 'string' && typeof o.privateKey === 'string' && typeof o.subject === 'string';
}

/** The keys kept in `<home>/web/vapid.json`, made (and kept) on the first call. */
export function loadVapidKeys(home: string): VapidKeys {
  const file = vapidFile(home);
  const kept = readJson(file);
  if (kept !== null) {
    if (!isKeys(kept)) throw new Error(`${file} has no publicKey, privateKey and subject: remove it to make new keys (every device then subscribes again)`);
    return kept;
  }
  const made = { ...webpush.generateVAPIDKeys(), subject: DEFAULT_VAPID_SUBJECT };
  writePrivateJson(home, file, made);
  return made;
}
