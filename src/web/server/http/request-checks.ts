/**
 * Who a request is from and where its page came from (docs/web.md, "Security"): the device
 * cookie, and the Origin a browser puts on every cross-site request and every WebSocket.
 */
import type { IncomingMessage } from 'node:http';
import { isLoopback } from '../listen-policy.js';

export const COOKIE_NAME = 'ab_device';
/** The cookie lasts as long as browsers let one (400 days): a phone stays paired until revoked. */
const COOKIE_MAX_AGE_S = 400 * 24 * 3600;

/** The device token the request's cookie carries, or null. */
export function cookieToken(req: IncomingMessage): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === COOKIE_NAME) {
      const v = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{20,100}$/.test(v) ? v : null;
    }
  }
  return null;
}

/** The Set-Cookie of a new device: the page's script never sees it (HttpOnly), no other site sends it (Strict). */
export const deviceCookie = (token: string, secure: boolean): string =>
  `${COOKIE_NAME}=${token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${COOKIE_MAX_AGE_S}${secure ? '; Secure' : ''}`;

/**
 * The browser reached us over HTTPS through a proxy on this machine (`tailscale serve`, a local
 * TLS proxy): its page's origin is https while we speak http. Only a loopback peer is believed.
 */
export function viaLocalHttpsProxy(req: IncomingMessage): boolean {
  return isLoopback(req.socket.remoteAddress ?? '') && String(req.headers['x-forwarded-proto'] ?? '').toLowerCase() === 'https';
}

/** The request's Origin is this server as the browser addressed it (scheme and Host). */
export function originMatches(req: IncomingMessage, tls: boolean): boolean {
  const origin = req.headers.origin?.toLowerCase();
  const host = req.headers.host?.toLowerCase();
  if (!origin || !host) return false;
  const schemes = tls ? ['https'] : viaLocalHttpsProxy(req) ? ['https', 'http'] : ['http'];
  return schemes.some((s) => origin === `${s}://${host}`);
}
