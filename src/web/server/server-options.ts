/**
 * What `agent-board web` hands the detached server process (src/web/server/entry.ts): one JSON
 * argument, checked by the CLI first (src/cli/commands/web.ts) and again by the server.
 */
export interface ServerOptions {
  /** 0: any free port (server.json says which). */
  port: number;
  host: string;
  /** Paths of the certificate and its key (PEM): HTTPS. */
  tlsCert?: string;
  tlsKey?: string;
  insecureHttp: boolean;
  /** `ntfy:<topic url>`: notifications to ntfy too. */
  notify?: string;
}

/** The server's argument read back, or a line saying what is wrong with it. */
export function parseServerOptions(arg: string | undefined): ServerOptions | string {
  let v: Partial<ServerOptions>;
  try {
    v = JSON.parse(arg ?? '') as Partial<ServerOptions>;
  } catch {
    return 'usage: web-server.cjs <options as JSON> (started by agent-board web)';
  }
  if (typeof v.port !== 'number' || !Number.isInteger(v.port) || v.port < 0 || v.port > 65535) return 'port: 0-65535';
  if (typeof v.host !== 'string' || v.host === '') return 'host: an address';
  if ((v.tlsCert === undefined) !== (v.tlsKey === undefined)) return 'TLS needs both a certificate and its key';
  return { port: v.port, host: v.host, tlsCert: v.tlsCert, tlsKey: v.tlsKey, insecureHttp: v.insecureHttp === true, notify: v.notify };
}
