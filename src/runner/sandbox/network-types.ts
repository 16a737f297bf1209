/**
 * The network proxy of a sandbox with `--network allowlist` (docs/sandbox.md): started by the
 * runner, outside the sandbox, for its one session. The sandbox has no network of its own
 * (`--unshare-net`); its only way out is this Unix socket, bound in at the same path, which a
 * bridge inside turns into a proxy on 127.0.0.1 for the program's HTTP(S)_PROXY.
 */
import type { Disposable } from '../../core/lifetime.js';
import type { Logger } from '../log.js';

export interface NetworkProxy extends Disposable {
  /** The proxy's Unix socket on the host: bound into the sandbox at the same path. */
  readonly socketPath: string;
  /** What the program's environment gets (HTTP_PROXY, HTTPS_PROXY, NO_PROXY, ...). */
  readonly env: Readonly<Record<string, string>>;
  /** Run inside the sandbox before the program: starts the bridge, waits until it listens, then runs the argv after it. */
  readonly bridge: readonly string[];
}

export interface NetworkProxyOptions {
  /** `host`, `*.domain` or `host:port` (an IP literal too: `127.0.0.1:8080`). */
  allowHosts: readonly string[];
  /** A connection refused: the host and port the program tried. */
  onDenied(host: string, port: number): void;
  log: Logger;
}

export type StartNetworkProxy = (o: NetworkProxyOptions) => Promise<NetworkProxy>;
