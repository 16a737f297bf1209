/**
 * A prompt's command id: what makes `send` exactly once. The page makes one per prompt (and per
 * batch of review comments) and resends the same one after a reconnect; the runner's journal
 * reconciles it, so nothing is typed twice. The protocol takes 8-64 letters, digits, - or _
 * (src/core/web/web-protocol.ts): 32 hex digits of 16 random bytes. From getRandomValues, not
 * crypto.randomUUID, which a page served over plain http to a LAN address (--insecure-http) lacks.
 */

/** 16 random bytes as 32 hex digits. */
export function cmdIdFrom(bytes: Uint8Array): string {
  if (bytes.length < 8) throw new Error('a command id needs at least 8 random bytes');
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/** Bytes enough for an id no two prompts of a page share. */
export const CMD_ID_BYTES = 16;
