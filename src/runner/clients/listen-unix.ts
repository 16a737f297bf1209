/**
 * Listens on a unix socket path without loading node's cluster module. `net.Server.listen`
 * always goes through node's listenInCluster, which requires `cluster` (and with it
 * child_process, dgram and their internals: 1.1 MiB of RSS that every idle runner kept,
 * bench/rss.mjs) only to learn that this process is not a cluster worker, and then calls
 * `server._listen2`. A runner is never a cluster worker, so it calls that itself, as listen
 * would for a path (node-internals.ts listenPipeDirectly); where a node has no `_listen2`, it
 * listens the usual way.
 */
import type net from 'node:net';
import { listenPipeDirectly } from '../node-internals.js';

/** Starts `server` listening on `socketPath`: 'listening' or 'error' follows, as for `server.listen(socketPath)`. */
export function listenUnix(server: net.Server, socketPath: string): void {
  if (!listenPipeDirectly(server, socketPath)) server.listen(socketPath);
}
