/** Finds the session a user means: an id, a name, or a unique prefix of either. */

export interface Named { id: string; name: string }

export type Resolved<T extends Named> =
  | { ok: true; session: T }
  | { ok: false; reason: 'unknown'; message: string }
  | { ok: false; reason: 'ambiguous'; message: string; candidates: T[] };

export function resolveSessionRef<T extends Named>(ref: string, sessions: readonly T[]): Resolved<T> {
  // An empty ref is a prefix of everything: it must not pick the only session.
  if (ref.trim() === '') {
    return { ok: false, reason: 'unknown', message: 'no session given; see the list with: agent-board ls' };
  }
  const exact = sessions.find((s) => s.id === ref) ?? sessions.find((s) => s.name === ref);
  if (exact) return { ok: true, session: exact };
  const lower = ref.toLowerCase();
  const byName = sessions.filter((s) => s.name.toLowerCase() === lower);
  if (byName.length === 1) return { ok: true, session: byName[0]! };
  const matches = sessions.filter((s) => s.id.startsWith(ref) || s.name.toLowerCase().startsWith(lower));
  if (matches.length === 1) return { ok: true, session: matches[0]! };
  if (matches.length === 0) {
    return { ok: false, reason: 'unknown', message: `no session "${ref}"; see the list with: agent-board ls` };
  }
  const names = matches.slice(0, 5).map((s) => `${s.name} (${s.id})`).join(', ');
  return {
    ok: false,
    reason: 'ambiguous',
    message: `"${ref}" matches ${matches.length} sessions: ${names}; type more of the id or name`,
    candidates: matches,
  };
}

/** Names are typed on command lines: keep them plain. */
export function checkSessionName(name: string): string | null {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
    return `invalid name "${name}": use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit`;
  }
  return null;
}
