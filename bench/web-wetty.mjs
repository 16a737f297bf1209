// wetty (https://github.com/butlerx/wetty), the reference of the web benchmark: a web terminal on
// xterm.js over socket.io, from npm. The bench installs it itself into a cache directory outside
// the repository (never committed, never a dependency of ours) and runs it on 127.0.0.1 with the
// same shell ours runs.
//
// How it runs a shell without ssh: wetty spawns `/usr/bin/env -S <--command>` in a PTY (node-pty)
// when it runs as root and its ssh host is localhost (build/server/command.js: `localhost()`
// checks `process.getuid() === 0`); otherwise it would ssh to localhost. Not root, we start it with
// a preload that makes `process.getuid()` read 0 for that check only, which changes nothing else
// it does (the PTY, the socket.io transport, the page are as a root user gets them).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { NODE, baseEnv, sleep } from './lib.mjs';

/** The wetty release we measure against (3.2.0: xterm.js 6 with its WebGL addon, like ours on xterm 6). */
export const WETTY_VERSION = '3.2.0';
export const WETTY_DIR = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'agent-board-bench', 'wetty');
const MAIN = path.join(WETTY_DIR, 'node_modules', 'wetty', 'build', 'main.js');
const INSTALL_TIMEOUT_MS = 300_000;

/** Installs wetty@WETTY_VERSION in WETTY_DIR unless there; resolves with null, or why it could not. */
export function installWetty(log) {
  try {
    const pkgFile = path.join(WETTY_DIR, 'node_modules', 'wetty', 'package.json');
    if (fs.existsSync(pkgFile) && JSON.parse(fs.readFileSync(pkgFile, 'utf8')).version === WETTY_VERSION && nodePtyLoads()) return null;
    fs.mkdirSync(WETTY_DIR, { recursive: true });
    // npm 11 runs a package's install scripts only when allowScripts says so: node-pty builds its addon.
    const manifest = { name: 'agent-board-bench-wetty', private: true, dependencies: { wetty: WETTY_VERSION }, allowScripts: { 'node-pty': true } };
    fs.writeFileSync(path.join(WETTY_DIR, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
    log(`installing wetty@${WETTY_VERSION} into ${WETTY_DIR} (npm install --no-audit --no-fund) ...`);
    const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--omit=dev'], { cwd: WETTY_DIR, encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS });
    if (r.status !== 0) return `npm install wetty@${WETTY_VERSION} failed (${r.status ?? r.signal}): ${(r.stderr || r.error?.message || '').trim().split('\n').slice(-3).join(' / ')}`;
    if (!fs.existsSync(MAIN)) return `wetty installed but ${MAIN} is missing`;
    if (!nodePtyLoads()) return "wetty's node-pty did not build (its addon does not load)";
    return null;
  } catch (err) {
    return `wetty install: ${err?.message ?? err}`;
  }
}

function nodePtyLoads() {
  const r = spawnSync(NODE, ['-e', "require('node-pty')"], { cwd: WETTY_DIR, encoding: 'utf8', timeout: 20_000 });
  return r.status === 0;
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts TCP connections on 127.0.0.1:port. */
export async function waitListening(port, timeoutMs, isAlive = () => true) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const c = net.connect(port, '127.0.0.1');
      c.once('connect', () => (c.destroy(), resolve(true)));
      c.once('error', () => resolve(false));
    });
    if (ok) return;
    if (!isAlive()) throw new Error('the server exited before it listened');
    if (Date.now() > end) throw new Error(`nothing listening on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await sleep(100);
  }
}

/**
 * Starts wetty on 127.0.0.1:<free port> running `bash --norc --noprofile -i` with PS1 from the
 * environment, as ours runs it. Resolves with { url, pid, command, stop() }.
 */
export async function startWetty(cwd, cleanup) {
  const port = await freePort();
  const args = ['--host', '127.0.0.1', '--port', String(port), '--command', 'bash --norc --noprofile -i', '--log-level', 'warn', '--title', 'wetty'];
  const preload = process.getuid?.() === 0 ? [] : ['--import', 'data:text/javascript,process.getuid=()=>0'];
  const env = baseEnv({ PS1: 'PROMPT> ', HISTFILE: '/dev/null', NODE_ENV: 'production' });
  const child = spawn(NODE, [...preload, MAIN, ...args], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr.on('data', (b) => (stderr = (stderr + b).slice(-4000)));
  let alive = true;
  child.once('exit', () => (alive = false));
  const stop = async () => {
    if (!alive) return;
    try {
      process.kill(-child.pid, 'SIGKILL'); // wetty and the shells it started (its process group)
    } catch {
      // gone
    }
    await new Promise((r) => (alive ? child.once('exit', r) : r()));
  };
  cleanup.add('wetty', stop);
  try {
    await waitListening(port, 20_000, () => alive);
  } catch (err) {
    throw new Error(`wetty did not start: ${err.message}${stderr ? `: ${stderr.trim().split('\n').slice(-3).join(' / ')}` : ''}`);
  }
  const command = `node ${preload.join(' ')} ${MAIN} ${args.map((a) => (/\s/.test(a) ? `'${a}'` : a)).join(' ')}`.replace(/\s+/g, ' ');
  return { url: `http://127.0.0.1:${port}/`, pid: child.pid, command, stop };
}
