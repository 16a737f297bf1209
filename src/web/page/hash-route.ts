/**
 * The view in the URL's hash, so the browser's back button, a reload and a notification's tap
 * (`/#s=<id>`, the push payload's url) land on the same view: `#s=<id>` a session's terminal,
 * `#d=<id>` its diff, `#c=<room>` a room's chat, nothing the list. `#pair=<code>` is the pairing
 * link `agent-board web pair` prints as a QR code: the form fills itself from it.
 */

export type Route = { view: 'list' } | { view: 'session'; id: string } | { view: 'diff'; id: string } | { view: 'chat'; room: string };

export interface HashParts {
  route: Route;
  /** A pairing code from `#pair=CODE`, or null. */
  pairCode: string | null;
}

const LIST: Route = { view: 'list' };

function decode(v: string): string | null {
  try {
    return decodeURIComponent(v);
  } catch {
    // A hash typed or cut by hand: a bad escape is no view, the list shows instead.
    return null;
  }
}

/** Reads `location.hash` (with or without its `#`). */
export function parseHash(hash: string): HashParts {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const eq = body.indexOf('=');
  if (eq < 0) return { route: LIST, pairCode: null };
  const key = body.slice(0, eq);
  const value = decode(body.slice(eq + 1));
  if (value === null || value === '') return { route: LIST, pairCode: null };
  switch (key) {
    case 's':
      return { route: { view: 'session', id: value }, pairCode: null };
    case 'd':
      return { route: { view: 'diff', id: value }, pairCode: null };
    case 'c':
      return { route: { view: 'chat', room: value }, pairCode: null };
    case 'pair':
      return { route: LIST, pairCode: value.trim() };
    default:
      return { route: LIST, pairCode: null };
  }
}

/** The hash for a view ('' for the list). */
export function routeHash(route: Route): string {
  switch (route.view) {
    case 'list':
      return '';
    case 'session':
      return `#s=${encodeURIComponent(route.id)}`;
    case 'diff':
      return `#d=${encodeURIComponent(route.id)}`;
    case 'chat':
      return `#c=${encodeURIComponent(route.room)}`;
  }
}

export const sameRoute = (a: Route, b: Route): boolean => routeHash(a) === routeHash(b);
