/**
 * The detach key: parsed from a user's spelling ("ctrl-\\", "C-]", "^a") into
 * the byte a terminal sends, plus the forms the same key takes when the
 * program turned on the kitty keyboard protocol or modifyOtherKeys.
 */

export const DEFAULT_DETACH_KEY = 'ctrl-\\';

export interface DetachKey {
  /** How to show it to a user, e.g. "Ctrl-\". */
  label: string;
  /** Every byte sequence that means this key. */
  sequences: string[];
}

export type ParsedDetachKey = { ok: true; key: DetachKey } | { ok: false; message: string };

/** Ctrl plus one of these gives a control byte (code & 0x1f). */
const CONTROLLABLE = /^[a-z@[\\\]^_]$/;

export function parseDetachKey(spec: string): ParsedDetachKey {
  const m = /^(?:ctrl[-+]|c-|\^)(.)$/i.exec(spec.trim());
  const ch = m?.[1]?.toLowerCase();
  if (!ch || !CONTROLLABLE.test(ch)) {
    return { ok: false, message: `cannot use "${spec}" as a detach key; use Ctrl plus a letter or one of @ [ \\ ] ^ _ (for example ctrl-\\)` };
  }
  const code = ch.charCodeAt(0);
  const control = String.fromCharCode(code & 0x1f);
  const kittyCode = ch === '@' ? 64 : code; // kitty reports the unshifted key's code point
  return {
    ok: true,
    key: {
      label: `Ctrl-${ch.length === 1 && /[a-z]/.test(ch) ? ch.toUpperCase() : ch}`,
      sequences: [control, `\x1b[${kittyCode};5u`, `\x1b[27;5;${kittyCode}~`],
    },
  };
}

/** Index of the first detach sequence in `data` and its length, or null. */
export function findDetachKey(key: DetachKey, data: string): { index: number; length: number } | null {
  let best: { index: number; length: number } | null = null;
  for (const seq of key.sequences) {
    const i = data.indexOf(seq);
    if (i !== -1 && (best === null || i < best.index)) best = { index: i, length: seq.length };
  }
  return best;
}
