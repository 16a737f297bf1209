/** The headers every answer carries (docs/web.md, "Security"): a strict CSP and the usual hardening. */
import type { ServerResponse } from 'node:http';

/**
 * Only our own files: no inline script, no eval, no other origin for anything; inline styles are
 * allowed (xterm.js sets style attributes as it draws); images may be data: URLs (icons).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

export function securityHeaders(res: ServerResponse, tls: boolean): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  // A browser that reached us over TLS keeps to it.
  if (tls) res.setHeader('Strict-Transport-Security', 'max-age=31536000');
}

/** Sends a short answer: a status and one line of text (or JSON). */
export function answer(res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8'): void {
  res.statusCode = status;
  res.setHeader('Content-Type', type);
  res.setHeader('Cache-Control', 'no-store');
  res.end(body);
}
