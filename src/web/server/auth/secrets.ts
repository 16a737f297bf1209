/** The random secrets of pairing and their hashes: only a hash is ever written down (docs/web.md, "Security"). */
import crypto from 'node:crypto';

/** sha256 hex of a secret: what devices.json and pairing.json keep. */
export const hashSecret = (secret: string): string => crypto.createHash('sha256').update(secret, 'utf8').digest('hex');

/** Two hashes compared in time that does not depend on where they differ. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** A device token: 32 random bytes (256 bits), base64url, what the cookie carries. */
export const newToken = (): string => crypto.randomBytes(32).toString('base64url');

/** A device's id (not a secret): what `web devices` shows and `--revoke` takes. */
export const newDeviceId = (): string => crypto.randomBytes(4).toString('hex');

/** The pairing code's letters: upper case and digits, without those a reader mixes up (0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** 8 of 31 letters: about 40 bits, against 5 tries in 5 minutes. */
export const CODE_LENGTH = 8;

export function newPairingCode(): string {
  let code = '';
  // crypto.randomInt is uniform (no modulo bias).
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[crypto.randomInt(CODE_ALPHABET.length)]!;
  return code;
}

/** A code as typed: case, spaces and dashes do not matter (`abcd-efgh` is `ABCDEFGH`). */
export const normalCode = (typed: string): string => typed.toUpperCase().replace(/[\s-]/g, '');
