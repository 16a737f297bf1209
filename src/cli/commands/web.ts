/**
 * `agent-board web`: the board in a browser (docs/web.md). The server runs in a detached process
 * of its own (src/web/server/entry.ts, bundled as dist/bundle/web-server.cjs), one per home; this
 * command starts it and waits until it listens, stops it, says whether it runs, opens a pairing
 * code for a new browser (`web pair`) and lists or revokes the paired ones (`web devices`).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { Option } from 'commander';
import { EXIT, UserError } from '../../state/errors.js';
import { ROOT, rebuildFix } from '../../state/this-copy.js';
import { startDetached } from '../../state/process/start.js';
import { terminate } from '../../state/process/terminate.js';
import { listDevices, revokeDevice } from '../../web/server/auth/devices.js';
import { openPairing, PAIRING_TTL_MS } from '../../web/server/auth/pairing.js';
import { DEFAULT_WEB_HOST, DEFAULT_WEB_PORT, listenPolicy } from '../../web/server/listen-policy.js';
import type { ServerOptions } from '../../web/server/server-options.js';
import { ensureWebDir, runningServer, serverFile, serverLogFile, type ServerInfo } from '../../web/server/web-home.js';
import { printErr, printOut } from '../print.js';
import { cliTime } from '../cli-time.js';
import { getHome } from '../context.js';
import { ago, table } from '../format.js';
import { wholeNumber } from '../whole-number.js';

/** The server's bundle (scripts/bundle.mjs). */
const SERVER_ENTRY = path.join(ROOT, 'dist', 'bundle', 'web-server.cjs');
/** How long a start waits for the server to listen (it loads the feeds first: well under a second). */
const START_TIMEOUT_MS = 10_000;
const START_POLL_MS = 25;

interface WebCliOptions {
  port?: number;
  host?: string;
  tlsCert?: string;
  tlsKey?: string;
  insecureHttp?: boolean;
  notify?: string;
  stop?: boolean;
  status?: boolean;
}

export function registerWeb(program: Command): void {
  const web = program
    .command('web')
    .description('the board in a browser: start the web server (detached), stop it, pair a phone')
    .option('--port <n>', `the port (default ${DEFAULT_WEB_PORT}; 0: any free one)`, port)
    .option('--host <addr>', `the address to listen on (default ${DEFAULT_WEB_HOST}; another needs TLS or --insecure-http)`)
    .option('--tls-cert <file>', 'serve HTTPS with this certificate (PEM; with --tls-key)')
    .option('--tls-key <file>', "the certificate's private key (PEM)")
    .option('--insecure-http', 'allow plain HTTP on an address other than loopback (warned on every start)')
    .option('--notify <ntfy:url>', 'also send notifications to an ntfy topic: ntfy:https://ntfy.sh/<topic>')
    .addOption(new Option('--stop', 'stop the running server').conflicts(['status']))
    .option('--status', 'say whether it runs and where (exit 1 when not)')
    .action(async (o: WebCliOptions) => {
      const home = getHome();
      ensureWebDir(home);
      if (o.stop) return stopServer(home);
      if (o.status) return status(home);
      return startServer(home, o);
    });
  web
    .command('pair')
    .description('open a one-time code (and its QR code) to pair a browser; valid 5 minutes, one use')
    .option('--read-only', 'the device may watch but never type')
    .option('--name <name>', 'what `web devices` calls it (default: what the browser says)')
    .option('--url <url>', "the address the phone opens, when it is not the server's own (behind tailscale serve, ssh -L)")
    .action(async (o: { readOnly?: boolean; name?: string; url?: string }) => pair(getHome(), o));
  web
    .command('devices')
    .description('list the paired browsers, or revoke one (its open pages are cut at once)')
    .option('--revoke <id>', 'end this device: its cookie is refused from now on')
    .option('--json', 'print JSON')
    .action((o: { revoke?: string; json?: boolean }) => devices(getHome(), o));
}

function serverOptions(o: WebCliOptions): ServerOptions {
  const host = o.host ?? DEFAULT_WEB_HOST;
  if ((o.tlsCert === undefined) !== (o.tlsKey === undefined)) throw new UserError('--tls-cert and --tls-key go together', EXIT.usage);
  for (const f of [o.tlsCert, o.tlsKey]) {
    if (f !== undefined && !fs.existsSync(f)) throw new UserError(`no such file: ${f}`, EXIT.usage);
  }
  if (o.notify !== undefined && !/^ntfy:https?:\/\/\S+$/.test(o.notify)) throw new UserError('--notify takes ntfy:<topic url>, e.g. ntfy:https://ntfy.sh/my-topic', EXIT.usage);
  const tls = o.tlsCert !== undefined;
  const policy = listenPolicy({ host, tls, insecureHttp: o.insecureHttp === true });
  if (!policy.ok) throw new UserError(policy.line, EXIT.usage);
  if (policy.warning) printErr(`agent-board: ${policy.warning}\n`);
  return {
    port: o.port ?? DEFAULT_WEB_PORT,
    host,
    ...(tls ? { tlsCert: path.resolve(o.tlsCert!), tlsKey: path.resolve(o.tlsKey!) } : {}),
    insecureHttp: o.insecureHttp === true,
    ...(o.notify ? { notify: o.notify } : {}),
  };
}

function port(v: string): number {
  const n = wholeNumber(v, '--port');
  if (n > 65535) throw new UserError(`--port must be 0-65535, not ${n}`, EXIT.usage);
  return n;
}

const say = (line: string): void => printOut(line + '\n');

async function startServer(home: string, o: WebCliOptions): Promise<void> {
  const options = serverOptions(o);
  const running = runningServer(home);
  if (running) return say(`already running at ${running.url} (pid ${running.pid})`);
  if (!fs.existsSync(SERVER_ENTRY)) throw new UserError(`${SERVER_ENTRY} is missing: ${rebuildFix()}`, EXIT.failure);
  const logFile = serverLogFile(home);
  const logStart = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
  const err = fs.openSync(logFile, 'a', 0o600);
  let exited: string | null = null;
  try {
    const child = startDetached(process.execPath, [SERVER_ENTRY, JSON.stringify(options)], { cwd: home, env: { ...process.env, AGENT_BOARD_HOME: home }, stderr: err });
    child.once('exit', (code, signal) => (exited = signal ?? `exit code ${code}`));
    child.once('error', (e) => (exited = e.message));
    const time = cliTime();
    const deadline = time.clock.now() + START_TIMEOUT_MS;
    for (;;) {
      const info = runningServer(home);
      if (info && info.pid === child.pid) return started(info);
      if (exited !== null) {
        // It said why on stderr (server.log), or it found another server that won the race.
        const said = newLogLines(logFile, logStart).filter((l) => l.startsWith('agent-board web: ')).pop();
        const other = runningServer(home);
        if (other) return say(`already running at ${other.url} (pid ${other.pid})`);
        throw new UserError(said ? said.slice('agent-board web: '.length) : `the web server ended at start (${exited}); see ${logFile}`, EXIT.failure);
      }
      if (time.clock.now() > deadline) throw new UserError(`the web server did not start listening within ${START_TIMEOUT_MS / 1000} s; see ${logFile}`, EXIT.failure);
      await new Promise<void>((r) => time.scheduler.setTimeout(r, START_POLL_MS));
    }
  } finally {
    fs.closeSync(err);
  }
}

function newLogLines(file: string, from: number): string[] {
  try {
    return fs.readFileSync(file).subarray(from).toString('utf8').split('\n').filter(Boolean);
  } catch {
    return []; // no log: the caller says where to look all the same
  }
}

function started(info: ServerInfo): void {
  say(`agent-board web running at ${info.url} (pid ${info.pid})`);
  say('pair a browser with: agent-board web pair');
}

function status(home: string): void {
  const info = runningServer(home);
  if (!info) {
    say('not running');
    process.exitCode = EXIT.failure;
    return;
  }
  say(`running at ${info.url} (pid ${info.pid}, since ${info.startedAt})`);
}

async function stopServer(home: string): Promise<void> {
  const info = runningServer(home);
  if (!info) return say('not running');
  const ended = await terminate(info.pid, { scheduler: cliTime().scheduler }).ended;
  if (ended.kind === 'refused' || ended.kind === 'still-alive') throw new UserError(`could not stop the web server (pid ${info.pid}): ${ended.kind}`, EXIT.failure);
  // A server killed before it could remove its record leaves it: it names a process that is gone.
  if (runningServer(home) === null) fs.rmSync(serverFile(home), { force: true });
  say(`stopped (pid ${info.pid})`);
}

async function pair(home: string, o: { readOnly?: boolean; name?: string; url?: string }): Promise<void> {
  const info = runningServer(home);
  if (!info) throw new UserError('the web server is not running: start it with agent-board web', EXIT.failure);
  const base = (o.url ?? info.url).replace(/\/*$/, '/');
  if (!/^https?:\/\//.test(base)) throw new UserError('--url takes an http:// or https:// address', EXIT.usage);
  ensureWebDir(home);
  const { code } = openPairing(home, cliTime().clock, { readOnly: o.readOnly === true, ...(o.name ? { name: o.name } : {}) });
  const link = `${base}#pair=${code}`;
  // The QR code module loads only here: no other command pays for it.
  const { qrText } = await import('../qr-code.js');
  const qr = await qrText(link, process.stdout.isTTY === true);
  say(qr.trimEnd());
  say('');
  say(`code: ${code.slice(0, 4)}-${code.slice(4)}${o.readOnly ? ' (read-only device)' : ''}`);
  say(`open: ${link}`);
  say(`valid ${PAIRING_TTL_MS / 60_000} minutes, for one browser; scan the QR code, or open ${base} and type the code`);
}

function devices(home: string, o: { revoke?: string; json?: boolean }): void {
  if (o.revoke !== undefined) {
    const gone = revokeDevice(home, o.revoke);
    if (gone === null) throw new UserError(`no device "${o.revoke}"; see: agent-board web devices`, EXIT.failure);
    if ('ambiguous' in gone) throw new UserError(`"${o.revoke}" matches ${gone.ambiguous.length} devices: ${gone.ambiguous.map((d) => d.id).join(', ')}`, EXIT.usage);
    return say(`revoked ${gone.id} (${gone.name})`);
  }
  const list = listDevices(home);
  if (o.json) {
    printOut(JSON.stringify(list.map(({ tokenHash: _t, ...d }) => d), null, 2) + '\n');
    return;
  }
  if (list.length === 0) return say('no paired devices; pair one with: agent-board web pair');
  const rows = [['ID', 'NAME', 'LAST SEEN', 'READ-ONLY']];
  for (const d of list) rows.push([d.id, d.name, d.lastSeen ? `${ago(d.lastSeen)} ago` : 'never', d.readOnly ? 'yes' : 'no']);
  printOut(table(rows) + '\n');
}
