/**
 * The web server process (`node dist/bundle/web-server.cjs <options JSON>`), started detached by
 * `agent-board web` (src/cli/commands/web.ts), and its composition root: the real clock and timers,
 * the board's parts (the same feeds and actions as the terminal board: src/client/board-actions/
 * board-parts.ts), the hub, the push side, the HTTP(S) server. It writes server.json once it
 * listens and removes it when it stops (SIGTERM, SIGINT); it ignores SIGHUP, so it outlives the
 * terminal that started it. What happens is told in <home>/web/server.log.
 */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { DisposableStore, toDisposable } from '../../core/lifetime.js';
import { isoTime } from '../../core/iso-time.js';
import { readUserConfig } from '../../state/config.js';
import { ensureHome } from '../../state/home.js';
import { processStartTime } from '../../state/proc-identity.js';
import { realClock, realScheduler } from '../../state/real-time.js';
import { ROOT } from '../../state/this-copy.js';
import { makeBoardParts } from '../../client/board-actions/board-parts.js';
import { serveWeb } from './http/web-http.js';
import { loadPageFiles } from './http/static-files.js';
import { hostPort, listenPolicy } from './listen-policy.js';
import { LiveWaitingQuestions } from '../../client/notify/waiting-questions.js';
import { WebHub } from './hub/web-hub.js';
import { createPush } from './push/push.js';
import type { HubDeps } from './web-types.js';
import { parseServerOptions, type ServerOptions } from './server-options.js';
import { serverLogger } from './server-log.js';
import { ensureWebDir, runningServer, serverFile, serverLogFile, writePrivateJson, type ServerInfo } from './web-home.js';

/** The page's bundle (scripts/bundle-web.mjs), beside this one in dist/bundle/. */
const PAGE_DIR = path.join(ROOT, 'dist', 'bundle', 'web');
const VERSION = '0.1.0';

async function runServer(o: ServerOptions): Promise<void> {
  const home = ensureHome();
  ensureWebDir(home);
  const clock = realClock;
  const log = serverLogger(serverLogFile(home), clock);
  // Process-wide handlers live as long as the process: the server's last word, not a resource it lets go.
  process.on('SIGHUP', () => log('SIGHUP ignored: the server outlives its terminal'));
  process.on('uncaughtException', (err) => log(`uncaught: ${err.stack ?? String(err)}`));
  process.on('unhandledRejection', (err) => log(`unhandled rejection: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));

  const other = runningServer(home);
  if (other && other.pid !== process.pid) {
    process.stderr.write(`agent-board web: already running at ${other.url} (pid ${other.pid})\n`);
    return;
  }
  const tls = o.tlsCert !== undefined && o.tlsKey !== undefined;
  const policy = listenPolicy({ host: o.host, tls, insecureHttp: o.insecureHttp });
  if (!policy.ok) throw new Error(policy.line);
  if (policy.warning) log(policy.warning);

  const time = { clock, scheduler: realScheduler() };
  const held = new DisposableStore();
  const settings = readUserConfig();
  for (const e of settings.errors) log(`config.json: ${e}`);
  // No view size: a page never resizes a session by just looking at it (docs/web.md).
  const parts = makeBoardParts({ home, hosts: settings.config.hosts, time, feedScheduler: realScheduler({ unref: true }) });
  held.add(toDisposable(() => parts.dispose()));
  held.add(parts.feed.onError((e) => log(`feed: ${e.detail}`)));
  // What a waiting session asks, read off its screen: its row's buttons and its notification's text.
  const questions = held.add(new LiveWaitingQuestions({ home, feed: parts.feed, time }));
  held.add(questions.onError((line) => log(`questions: ${line}`)));
  // A broken vapid.json or push.json, or a bad --notify, stops the start with one line (the catch below).
  let push: ReturnType<typeof createPush>;
  try {
    push = held.add(createPush({ home, feed: parts.feed, questions, time, ntfy: o.notify, log }));
  } catch (err) {
    held.dispose(); // the feeds' watches and sockets would hold the process
    throw err;
  }
  const deps: HubDeps = {
    feed: parts.feed,
    chat: parts.chat,
    actions: parts.actions,
    connect: (s, c) => parts.connect(s, c)(),
    questions,
    push,
    time,
    version: VERSION,
  };
  const hub = held.add(new WebHub(deps));
  held.add(hub.onError((line) => log(`hub: ${line}`)));
  // A revoked device's push subscriptions go with it.
  const revokeHub = hub.revoke.bind(hub);
  const sockets = { accept: hub.accept.bind(hub), revoke: (id: string) => (revokeHub(id), push.forgetDevice(id)) };

  let server: http.Server;
  try {
    server = tls ? https.createServer({ cert: fs.readFileSync(o.tlsCert!), key: fs.readFileSync(o.tlsKey!) }) : http.createServer();
    held.add(serveWeb(server, { home, time, tls, files: loadPageFiles(PAGE_DIR), hub: sockets, log }));
    await listen(server, o.port, o.host);
  } catch (err) {
    // Nothing listens: let go of the feeds (their watches and sockets would hold the process).
    held.dispose();
    const e = err as NodeJS.ErrnoException;
    const line = e.code === 'EADDRINUSE' ? `port ${o.port} of ${o.host} is taken (EADDRINUSE): give another with --port` : e.message;
    log(`cannot start: ${line}`);
    throw new Error(line);
  }
  server.on('error', (e) => log(`server: ${e.message}`));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : o.port;
  // A wildcard address is reached by this machine's name.
  const shown = o.host === '0.0.0.0' || o.host === '::' ? os.hostname() : o.host;
  const info: ServerInfo = {
    pid: process.pid,
    startTime: processStartTime('self'),
    url: `${tls ? 'https' : 'http'}://${hostPort(shown, port)}/`,
    port,
    host: o.host,
    tls,
    startedAt: isoTime(clock.now()),
  };
  // Two starts at once (each found no server.json): the one that wrote first is the home's server.
  const raced = runningServer(home);
  if (raced && raced.pid !== process.pid) {
    held.dispose();
    server.close();
    process.stderr.write(`agent-board web: already running at ${raced.url} (pid ${raced.pid})\n`);
    return;
  }
  writePrivateJson(serverFile(home), 'the web server record', info);
  log(`listening at ${info.url} (pid ${process.pid})`);

  const stop = (why: string) => {
    log(`stopping: ${why}`);
    // Only our own record: a second server that raced us wrote its own.
    if (runningServer(home)?.pid === process.pid) fs.rmSync(serverFile(home), { force: true });
    held.dispose();
    server.close();
    server.closeAllConnections();
    process.exit(0);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

const options = parseServerOptions(process.argv[2]);
if (typeof options === 'string') {
  process.stderr.write(`agent-board web: ${options}\n`);
  process.exitCode = 2;
} else {
  // Anything thrown before it listens ends it here, on stderr, which the CLI points at server.log.
  runServer(options).catch((err: unknown) => {
    process.stderr.write(`agent-board web: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}
