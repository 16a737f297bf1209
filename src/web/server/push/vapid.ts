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
 * The `sub` claim when the user gives none: RFC 8292 wants a way to reach whoever sends, a
 * mailto: or https: URI. Not a placeholder on localhost: Apple's push service (Safari, an iPhone's
 * home-screen app) answers `403 BadJwtToken` to `mailto:...@localhost` or `https://localhost`
 * (web-push-libs/web-push#947), while Google's and Mozilla's take anything. The package's page is a
 * real https URL every push service accepts.
 */
export const DEFAULT_VAPID_SUBJECT = 'https://www.npmjs.com/package/agent-board';

function isKeys(v: unknown): v is VapidKeys {
  const o = v as Partial<VapidKeys> | null;
  return typeof o?.publicKey === 'string' && typeof o.privateKey === 'string' && typeof o.subject === 'string';
}

/**
 * The keys kept in `<home>/web/vapid.json`, made (and kept) on the first call. `subject`, when
 * given, replaces the kept one (the keys stay: subscriptions are bound to the key, not the subject).
 */
export function loadVapidKeys(home: string, subject?: string): VapidKeys {
  const file = vapidFile(home);
  const kept = readJson(file);
  if (kept !== null) {
    if (!isKeys(kept)) throw new Error(`${file} has no publicKey, privateKey and subject: remove it to make new keys (every device then subscribes again)`);
    if (subject === undefined || subject === kept.subject) return kept;
    const updated = { ...kept, subject };
    writePrivateJson(home, file, updated);
    return updated;
  }
  const made = { ...webpush.generateVAPIDKeys(), subject: subject ?? DEFAULT_VAPID_SUBJECT };
  writePrivateJson(home, file, made);
  return made;
}
