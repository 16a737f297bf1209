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

/**
 * Ctrl plus these sends the same byte as a key of its own, so every press of
 * that key would detach: Ctrl-[ is Escape (which also starts every arrow key,
 * mouse report and paste), Ctrl-I is Tab, Ctrl-M is Enter.
 */
const SHADOWED: Record<string, string> = { '[': 'Escape', i: 'Tab', m: 'Enter' };

/**
 * Kitty modifier values meaning Ctrl, alone or with Caps Lock (64) and/or
 * Num Lock (128) engaged: kitty reports the locks alongside other modifiers,
 * so with Num Lock on Ctrl-\ arrives as ESC[92;133u.
 */
const KITTY_CTRL_MODS = [5, 5 + 64, 5 + 128, 5 + 64 + 128];

export function parseDetachKey(spec: string): ParsedDetachKey {
  const m = /^(?:ctrl[-+]|c-|\^)(.)$/i.exec(spec.trim());
  const ch = m?.[1]?.toLowerCase();
  if (!ch || !CONTROLLABLE.test(ch)) {
    return { ok: false, message: `cannot use "${spec}" as a detach key; use Ctrl plus a letter or one of @ [ \\ ] ^ _ (for example ctrl-\\)` };
  }
  const label = `Ctrl-${/[a-z]/.test(ch) ? ch.toUpperCase() : ch}`;
  const shadowed = SHADOWED[ch];
  if (shadowed) {
    return { ok: false, message: `cannot use "${spec}" as a detach key: ${label} sends the same byte as ${shadowed}; pick another (for example ctrl-\\)` };
  }
  const code = ch.charCodeAt(0); // kitty and modifyOtherKeys report the unshifted key's code point
  const control = String.fromCharCode(code & 0x1f);
  const kitty = KITTY_CTRL_MODS.flatMap((mods) => [`\x1b[${code};${mods}u`, `\x1b[${code};${mods}:1u`]); // :1 = press, may be explicit
  return {
    ok: true,
    key: { label, sequences: [control, ...kitty, `\x1b[27;5;${code}~`] },
  };
}

/** Index of the first detach sequence in `data` and its length, or null. */
export function findDetachKey(key: DetachKey, data: string): { index: number; length: number } | null {
  let best: { index: number; length: number } | null = null;
  for (const seq of key.sequences) {
    const i = data.indexOf(seq);
    if (i !== -1 && (best === null || i < best.index || (i === best.index && seq.length > best.length))) {
      best = { index: i, length: seq.length };
    }
  }
  return best;
}
