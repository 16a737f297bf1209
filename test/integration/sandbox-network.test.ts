/**
 * `--network allowlist` with real parts (docs/sandbox.md "What it may reach"): srt's proxy started
 * by startNetworkProxy in this process (as the runner starts it), a real bubblewrap sandbox with
 * its own network namespace and the proxy's socket bound in, the bridge run inside before the
 * program, and curl inside reaching two HTTP servers this test runs on the host's 127.0.0.1: one
 * allowed (`127.0.0.1:PORT`), one not. The sandbox is spawned asynchronously: the proxy runs on
 * this process's event loop, and a blocking spawn would hang every request (research §2.6a).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import dns from 'node:dns/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNetworkProxy } from '../../src/runner/sandbox/network-proxy.js';
import type { NetworkProxy } from '../../src/runner/sandbox/network-types.js';
import { findProgram } from '../../src/state/process/find-program.js';

const bwrap = findProgram('bwrap');
const needed = ['bwrap', 'socat', 'curl'].filter((p) => !findProgram(p));
const runnable = process.platform === 'linux' && needed.length === 0;
if (!runnable) console.log(`\n!!! sandbox network: NOT RUN: ${process.platform === 'linux' ? `${needed.join(', ')} not installed (.ci/run installs them)` : `not Linux (${process.platform})`} !!!\n`);

/** Generous: a loaded CI machine; each request is local and answers in milliseconds when it works. */
const CURL_TIMEOUT_S = 20;

interface Server {
  port: number;
  hits: number;
  close(): Promise<void>;
}

/** An HTTP server on the host's 127.0.0.1 that answers `<name> answered` and counts its requests. */
async function startServer(name: string): Promise<Server> {
  const s: Server = { port: 0, hits: 0, close: () => new Promise((res) => srv.close(() => res())) };
  const srv = http.createServer((_req, res) => {
    s.hits++;
    res.end(`${name} answered`);
  });
  await new Promise<void>((res) => srv.listen(0, '127.0.0.1', res));
  s.port = (srv.address() as AddressInfo).port;
  return s;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `script` (sh) run in a sandbox like a session's with `--network allowlist`: no network of its
 * own, the proxy's socket bound in at its path, the proxy env, and the bridge before the program.
 * `bridge: false` leaves the bridge out (what the test proves the bridge is for).
 */
function inSandbox(proxy: NetworkProxy, script: string, o: { bridge?: boolean } = {}): Promise<Run> {
  return inSandboxArgv(proxy, ['sh', '-c', script], o);
}

/** The program `argv` in that sandbox. */
function inSandboxArgv(proxy: NetworkProxy, argv: readonly string[], o: { bridge?: boolean } = {}): Promise<Run> {
  const args = [
    '--unshare-user', '--disable-userns', '--unshare-pid', '--unshare-net', '--die-with-parent',
    '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp',
    '--bind', proxy.socketPath, proxy.socketPath,
    '--',
    ...(o.bridge === false ? [] : proxy.bridge),
    ...argv,
  ];
  const child = spawn(bwrap ?? 'bwrap', args, { env: { ...process.env, ...proxy.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const run: Run = { code: null, stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (run.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (run.stderr += d.toString()));
  return new Promise((res) => child.on('close', (code) => res({ ...run, code })));
}

/** curl's body and, after a tab, the HTTP status of the answer and of a CONNECT (000: none); or what `write` says. */
const curl = (url: string, extra = '', write = '\\t%{http_code} %{http_connect}\\n') => `curl -sS -m ${CURL_TIMEOUT_S} ${extra} -w '${write}' '${url}'`;
/** `n` requests one after another, each printing its total time in seconds. */
const timed = (n: number, url: string, extra = '') => `i=0; while [ $i -lt ${n} ]; do ${curl(url, `${extra} -o /dev/null`, '%{time_total}\\n')}; i=$((i+1)); done`;

describe.runIf(runnable)('a sandbox with --network allowlist (srt proxy, real bwrap, socat bridge)', () => {
  let allowed: Server;
  let other: Server;
  let proxy: NetworkProxy;
  let loopbackName: string | null = null;
  const denied: string[] = [];
  const log: string[] = [];
  let startMs = 0;
  const signalsBefore = { SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') };

  beforeAll(async () => {
    allowed = await startServer('allowed');
    other = await startServer('other');
    // A name (not `localhost`) this machine resolves to loopback: allow-listed by name, srt must still refuse it.
    for (const name of [os.hostname(), 'ip6-localhost', 'ip6-loopback']) {
      const a = await dns.lookup(name).catch(() => null);
      if (a && (a.address.startsWith('127.') || a.address === '::1')) {
        loopbackName = name;
        break;
      }
    }
    const t0 = performance.now();
    proxy = await startNetworkProxy({
      allowHosts: [`127.0.0.1:${allowed.port}`, '*.agent-board.test', ...(loopbackName ? [`${loopbackName}:${other.port}`] : [])],
      onDenied: (host, port) => denied.push(`${host}:${port}`),
      log: (m) => log.push(m),
    });
    startMs = performance.now() - t0;
  });

  afterAll(async () => {
    proxy?.dispose(); // again, when a test failed before the last one: a second dispose does nothing
    await allowed?.close();
    await other?.close();
  });

  it('an allowed loopback port (127.0.0.1:PORT) answers through the proxy; without the bridge nothing does', async () => {
    const r = await inSandbox(proxy, curl(`http://127.0.0.1:${allowed.port}/`));
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('allowed answered\t200 000\n');
    expect(r.code).toBe(0);
    const without = await inSandbox(proxy, curl(`http://127.0.0.1:${allowed.port}/`), { bridge: false });
    expect(without.code).toBe(7); // couldn't connect: nothing listens on the sandbox's own 127.0.0.1:3128
    expect(allowed.hits).toBe(1);
  });

  it('a loopback port not on the list is refused (403) and reported with host and port each time, logged once; its server never sees it', async () => {
    const r = await inSandbox(proxy, `${curl(`http://127.0.0.1:${other.port}/`)}; ${curl(`http://127.0.0.1:${other.port}/again`)}`);
    expect(r.stdout).toMatch(/\t403 000\n.*\t403 000\n$/s);
    expect(denied.filter((d) => d === `127.0.0.1:${other.port}`)).toHaveLength(2);
    expect(log.filter((l) => l.startsWith(`network proxy: refused 127.0.0.1:${other.port} (not on the list)`))).toHaveLength(1);
    expect(other.hits).toBe(0);
  });

  it("the program's arguments reach it through the bridge as given: spaces, quotes and $ untouched", async () => {
    const args = ['a b', '"q"', "it's", '$HOME', '*', ''];
    const direct = await inSandboxArgv(proxy, ['printf', '[%s]\\n', ...args]);
    expect(direct.stdout).toBe(args.map((a) => `[${a}]\n`).join(''));
  });

  it('HTTPS to a name not listed: the CONNECT is refused before any DNS, and reported as name:443', async () => {
    const r = await inSandbox(proxy, curl('https://not-listed.agent-board.invalid/'));
    expect(r.stdout).toMatch(/\t000 403\n$/);
    expect(r.stderr).toContain('CONNECT tunnel failed, response 403');
    expect(denied).toContain('not-listed.agent-board.invalid:443');
  });

  it('a wildcard entry lets a name under it through (CONNECT passes the list; .test names resolve nowhere, so 502), not the domain itself', async () => {
    const r = await inSandbox(proxy, `${curl('https://api.agent-board.test/')}; ${curl('https://agent-board.test/')}`);
    expect(r.stdout).toMatch(/\t000 502\n\t000 403\n$/);
    expect(denied).not.toContain('api.agent-board.test:443');
    expect(denied).toContain('agent-board.test:443');
  });

  it('a program that ignores the proxy env reaches nothing: the host\'s loopback and the outside have no route', async () => {
    const r = await inSandbox(proxy, `${curl(`http://127.0.0.1:${allowed.port}/`, "--noproxy '*'")}; ${curl('http://192.0.2.1/', "--noproxy '*' --connect-timeout 5")}`);
    expect(r.stderr).toContain(`Failed to connect to 127.0.0.1 port ${allowed.port}`);
    expect(r.stderr).toMatch(/Failed to connect to 192\.0\.2\.1 port 80.*(Network is unreachable|Couldn't connect)/);
    expect(allowed.hits).toBe(1); // only the first test's request
  });

  it("an allowed name that resolves to loopback is refused by srt's resolved-address check, and reported", async (ctx) => {
    if (!loopbackName) {
      console.log('\n!!! sandbox network: the resolved-address test is NOT RUN: no name here resolves to loopback but localhost !!!\n');
      ctx.skip();
    }
    const r = await inSandbox(proxy, curl(`http://${loopbackName}:${other.port}/`));
    expect(r.stdout).not.toContain('other answered');
    expect(denied).toContain(`${loopbackName}:${other.port}`);
    expect(log.some((l) => l.includes(`refused ${loopbackName}:${other.port} (`) && l.includes('loopback'))).toBe(true);
    expect(other.hits).toBe(0);
  });

  it('a bridge that cannot start says so in one line and the program does not run', async () => {
    const broken = { ...proxy, bridge: proxy.bridge.map((a, i) => (i === 4 ? '/nonexistent/socat' : a)) };
    const r = await inSandbox(broken, 'echo the program ran');
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("agent-board: the sandbox's network bridge (socat) did not start");
    expect(r.code).toBe(126);
  });

  it('costs: the proxy starts in well under seconds, and a request through it is milliseconds more than direct', async () => {
    const N = 20;
    const through = await inSandbox(proxy, timed(N, `http://127.0.0.1:${allowed.port}/`));
    const direct = await new Promise<Run>((res) => {
      const c = spawn('sh', ['-c', timed(N, `http://127.0.0.1:${allowed.port}/`, "--noproxy '*'")], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      c.stdout.on('data', (d: Buffer) => (out += d.toString()));
      c.on('close', (code) => res({ code, stdout: out, stderr: '' }));
    });
    const median = (s: string) => {
      const v = s.trim().split('\n').map((l) => Number(l) * 1000).sort((a, b) => a - b);
      return v[Math.floor(v.length / 2)] ?? NaN;
    };
    const viaProxy = median(through.stdout);
    const bare = median(direct.stdout);
    const runMs = async (bridge: boolean) => {
      const t = performance.now();
      await inSandbox(proxy, 'true', { bridge });
      return performance.now() - t;
    };
    const withBridge: number[] = [];
    const withoutBridge: number[] = [];
    for (let i = 0; i < 5; i++) {
      withBridge.push(await runMs(true));
      withoutBridge.push(await runMs(false));
    }
    const mid = (v: number[]) => v.sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? NaN;
    console.log(`sandbox network: sandboxed \`true\` median of 5: ${mid(withBridge).toFixed(1)} ms with the bridge, ${mid(withoutBridge).toFixed(1)} ms without`);
    console.log(`sandbox network: proxy start ${startMs.toFixed(0)} ms; one request median of ${N}: through the proxy ${viaProxy.toFixed(2)} ms, direct ${bare.toFixed(2)} ms, +${(viaProxy - bare).toFixed(2)} ms`);
    expect(startMs).toBeLessThan(10_000);
    expect(viaProxy).toBeGreaterThan(0);
    expect(viaProxy - bare).toBeLessThan(1000);
  });

  it("leaves the process's SIGINT and SIGTERM handling as it was (srt adds listeners that would take Node's default away)", () => {
    expect({ SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM') }).toEqual(signalsBefore);
  });

  it('dispose stops what it started: the socket goes, and so does srt\'s socat on the host', async () => {
    /** The pids whose command line listens on the proxy's socket (srt's socat), read off /proc. */
    const processesOnSocket = async () => {
      const pids: string[] = [];
      for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
        const cmd = await fs.promises.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
        if (cmd.includes(`UNIX-LISTEN:${proxy.socketPath}`)) pids.push(pid);
      }
      return pids.join(' ');
    };
    expect(await processesOnSocket()).not.toBe('');
    proxy.dispose();
    const deadline = Date.now() + 10_000;
    while ((fs.existsSync(proxy.socketPath) || (await processesOnSocket()) !== '') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fs.existsSync(proxy.socketPath)).toBe(false);
    expect(await processesOnSocket()).toBe('');
    expect(log).toContain('network proxy: stopped');
  });
});
