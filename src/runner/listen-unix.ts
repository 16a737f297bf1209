/**
 * Listens on a unix socket path without loading node's cluster module. `net.Server.listen`
 * always goes through node's listenInCluster, which requires `cluster` (and with it
 * child_process, dgram and their internals: 1.1 MiB of RSS that every idle runner kept,
 * bench/rss.mjs) only to learn that this process is not a cluster worker, and then calls
 * `server._listen2`, a name node keeps "to avoid breaking code that wraps this method"
 * (lib/net.js). A runner is never a cluster worker, so it calls that itself, as listen would
 * for a path; where a node has no `_listen2`, it listens the usual way. This is the one place
 * the runner touches a node internal of net.
 */
import net from 'node:net';

interface ListenInternals {
  _listen2?: (address: string, port: number, addressType: number, backlog?: number) => void;
  _pipeName?: string;
}

/** Starts `server` listening on `socketPath`: 'listening' or 'error' follows, as for `server.listen(socketPath)`. */
export function listenUnix(server: net.Server, socketPath: string): void {
  const internals = server as net.Server & ListenInternals;
  if (typeof internals._listen2 !== 'function') {
    server.listen(socketPath);
    return;
  }
  internals._pipeName = socketPath; // what listen sets for a path: server.address() reads it
  internals._listen2(socketPath, -1, -1);
}
