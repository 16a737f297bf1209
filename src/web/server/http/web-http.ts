/**
 * The server's HTTP side (docs/web.md): the page's files from a fixed table, POST /api/pair, and
 * the one WebSocket, /api/ws, handed to the hub once its cookie names a paired device and its
 * Origin is this server. Everything but the page's files and /api/pair needs the cookie (401);
 * a request whose Origin is another site's is refused (403), as is an upgrade with none.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Time } from '../../../core/clock.js';
import { DisposableStore, toDisposable, type Disposable } from '../../../core/lifetime.js';
import { MAX_PAGE_FRAME_BYTES } from '../../../core/web/web-protocol.js';
import { checkToken } from '../auth/devices.js';
import type { WebDevice } from '../web-types.js';
import { answer, securityHeaders } from './headers.js';
import { OpenSockets } from './open-sockets.js';
import { pairRoute } from './pair-route.js';
import { cookieToken, originMatches, viaLocalHttpsProxy } from './request-checks.js';
import { requestPath, type StaticFile } from './static-files.js';

/** What the HTTP side hands a socket to: the hub (src/web/server/hub/web-hub.ts). */
export interface SocketHub {
  accept(ws: WebSocket, device: WebDevice): void;
  /** A device was revoked: drop what it holds (its sockets are closed here). */
  revoke(deviceId: string): void;
}

export interface WebHttpDeps {
  home: string;
  time: Time;
  /** The server speaks TLS itself. */
  tls: boolean;
  files: ReadonlyMap<string, StaticFile>;
  hub: SocketHub;
  log(line: string): void;
}

const STATUS_TEXT: Record<number, string> = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' };

/** Serves `server` (http or https) until disposed. */
export function serveWeb(server: Server, deps: WebHttpDeps): Disposable {
  const store = new DisposableStore();
  const { home, time, tls, files, hub, log } = deps;
  const clock = time.clock;
  const sockets = store.add(new OpenSockets(home, time, (id) => hub.revoke(id), log));
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAGE_FRAME_BYTES });
  store.add(toDisposable(() => wss.close()));
  const deviceOf = (req: IncomingMessage): WebDevice | null => {
    const token = cookieToken(req);
    return token ? checkToken(home, clock, token) : null;
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    try {
      securityHeaders(res, tls);
      const p = requestPath(req.url);
      if (req.headers.origin !== undefined && !originMatches(req, tls)) return answer(res, 403, 'another site may not ask this server\n');
      if (p === '/api/pair') return pairRoute(req, res, { home, clock, secure: tls || viaLocalHttpsProxy(req), log });
      if (p.startsWith('/api/')) {
        const device = deviceOf(req);
        if (!device) return answer(res, 401, JSON.stringify({ error: 'this browser is not paired: agent-board web pair' }) + '\n', 'application/json');
        if (p === '/api/me') return answer(res, 200, JSON.stringify(device) + '\n', 'application/json');
        if (p === '/api/ws') return answer(res, 426, 'a WebSocket only\n');
        return answer(res, 404, 'not found\n');
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') return answer(res, 405, 'GET only\n');
      const f = files.get(p);
      if (!f) return answer(res, 404, 'not found\n');
      res.statusCode = 200;
      res.setHeader('Content-Type', f.type);
      res.setHeader('Content-Length', f.body.length);
      res.setHeader('Cache-Control', f.cache);
      res.end(req.method === 'HEAD' ? undefined : f.body);
    } catch (e) {
      log(`request ${req.method ?? '?'} ${req.url ?? '?'} failed: ${(e as Error).stack ?? String(e)}`);
      if (!res.headersSent) answer(res, 500, 'internal error (see server.log)\n');
      else res.destroy();
    }
  };

  const refuse = (socket: Duplex, status: number) => {
    socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Refused'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', (e) => log(`upgrade socket: ${e.message}`));
    try {
      if (requestPath(req.url) !== '/api/ws') return refuse(socket, 404);
      // A browser always says where the page came from: no Origin is no page of ours.
      if (!originMatches(req, tls)) {
        log(`WebSocket refused: Origin ${req.headers.origin ?? '(none)'} is not ${req.headers.host ?? '?'}`);
        return refuse(socket, 403);
      }
      const device = deviceOf(req);
      if (!device) return refuse(socket, 401);
      wss.handleUpgrade(req, socket, head, (ws) => {
        sockets.add(device.id, ws);
        hub.accept(ws, device);
      });
    } catch (e) {
      log(`upgrade failed: ${(e as Error).stack ?? String(e)}`);
      socket.destroy();
    }
  };
  const onClientError = (e: Error, socket: Duplex) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    log(`bad request: ${e.message}`);
  };
  server.on('request', onRequest);
  server.on('upgrade', onUpgrade);
  server.on('clientError', onClientError);
  store.add(
    toDisposable(() => {
      server.off('request', onRequest);
      server.off('upgrade', onUpgrade);
      server.off('clientError', onClientError);
    }),
  );
  return store;
}
