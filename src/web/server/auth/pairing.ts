/**
 * The one pairing code of a home (docs/web.md, "Pairing"): `agent-board web pair` opens it, the page
 * trades it once for a device token (POST /api/pair). pairing.json keeps only its hash, when it
 * ends and the wrong tries so far; a code ends when it is used, when it expires, or at the
 * PAIRING_TRIES-th wrong try. A new `web pair` replaces an open code.
 */
import fs from 'node:fs';
import type { Clock } from '../../../core/clock.js';
import { pairingFile, readJson, writePrivateJson } from '../web-home.js';
import { hashSecret, newPairingCode, normalCode, sameHash } from './secrets.js';

/** How long a code is good for: long enough to pick up a phone and scan it. */
export const PAIRING_TTL_MS = 5 * 60_000;
/** Wrong codes before the open code ends (a guess has 5 chances in 31^8). */
export const PAIRING_TRIES = 5;

interface PairingRecord {
  codeHash: string;
  /** ms since the epoch */
  expiresAt: number;
  /** Wrong tries so far. */
  tries: number;
  readOnly: boolean;
  /** The name `web pair --name` gave (else the page's). */
  name?: string;
}

export type Trade =
  | { ok: true; readOnly: boolean; name?: string }
  /** `line`: what the page shows. */
  | { ok: false; why: 'none' | 'expired' | 'wrong' | 'spent'; line: string };

const isRecord = (v: unknown): v is PairingRecord => {
  const o = v as Partial<PairingRecord> | null;
  return !!o && typeof o.codeHash === 'string' && typeof o.expiresAt === 'number' && typeof o.tries === 'number';
};

const AGAIN = 'run `agent-board web pair` again for a new code';

/** Opens a new code (replacing any open one) and returns it: the only time it exists in clear. */
export function openPairing(home: string, clock: Clock, o: { readOnly: boolean; name?: string }): { code: string; expiresAt: number } {
  const code = newPairingCode();
  const expiresAt = clock.now() + PAIRING_TTL_MS;
  const rec: PairingRecord = { codeHash: hashSecret(code), expiresAt, tries: 0, readOnly: o.readOnly, ...(o.name ? { name: o.name } : {}) };
  writePrivateJson(pairingFile(home), 'the pairing code', rec);
  return { code, expiresAt };
}

/** Trades a typed code: right and in time, the code is spent (removed) and the device's terms returned. */
export function tradePairing(home: string, clock: Clock, typed: string): Trade {
  const file = pairingFile(home);
  const rec = readJson(file);
  if (!isRecord(rec)) return { ok: false, why: 'none', line: `no pairing code is open: ${AGAIN}` };
  if (clock.now() >= rec.expiresAt) {
    end(file);
    return { ok: false, why: 'expired', line: `the code expired: ${AGAIN}` };
  }
  if (sameHash(hashSecret(normalCode(typed)), rec.codeHash)) {
    end(file); // one use
    return { ok: true, readOnly: rec.readOnly === true, ...(rec.name ? { name: rec.name } : {}) };
  }
  const tries = rec.tries + 1;
  if (tries >= PAIRING_TRIES) {
    end(file);
    return { ok: false, why: 'spent', line: `wrong code, ${PAIRING_TRIES} times: that code is void; ${AGAIN}` };
  }
  writePrivateJson(file, 'the pairing code', { ...rec, tries });
  const left = PAIRING_TRIES - tries;
  return { ok: false, why: 'wrong', line: `wrong code (${left} ${left === 1 ? 'try' : 'tries'} left)` };
}

function end(file: string): void {
  fs.rmSync(file, { force: true });
}
