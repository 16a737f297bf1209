/**
 * Where the server may listen (docs/web.md, "Security"): a loopback address always; any other
 * only with TLS (a certificate the user gives), or with --insecure-http, which is said aloud on
 * every start: a token in a cookie over plain HTTP on a network can be read by anyone on it.
 */

/** The port when none is given. */
export const DEFAULT_WEB_PORT = 7377;
export const DEFAULT_WEB_HOST = '127.0.0.1';

/** 127.0.0.0/8, ::1 (and its IPv4-mapped form) and `localhost`. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export type ListenCheck = { ok: true; warning: string | null } | { ok: false; line: string };

export function listenPolicy(o: { host: string; tls: boolean; insecureHttp: boolean }): ListenCheck {
  if (o.tls || isLoopback(o.host)) return { ok: true, warning: null };
  if (!o.insecureHttp) {
    return {
      ok: false,
      line: `refusing to listen on ${o.host} without TLS: give --tls-cert and --tls-key, or keep 127.0.0.1 behind tailscale serve or ssh -L (docs/web.md); --insecure-http to do it anyway`,
    };
  }
  return { ok: true, warning: `warning: listening on ${o.host} over plain HTTP (--insecure-http): anyone on that network can read the device cookie and the sessions` };
}

/** `host:port` as a URL's authority (an IPv6 address in brackets). */
export const hostPort = (host: string, port: number): string => `${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
