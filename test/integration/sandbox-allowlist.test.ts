/**
 * `--network allowlist` end to end (docs/sandbox.md, "What it may reach"): a real runner starts
 * srt's proxy, the sandboxed program reaches an allowed loopback port through it, a port not on
 * the list is refused with 403, and host.json keeps the refusal (host, port, count) for `explain`.
 * Two HTTP servers on the host's loopback stand in for an allowed and a forbidden service.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProgram } from '../../src/state/process/find-program.js';
import { readHost } from '../helpers/control.js';
import { cli, waitFor } from '../helpers/home.js';
import { SandboxRig } from './sandbox-rig.js';

const missing = ['bwrap', 'socat', 'curl'].filter((p) => !findProgram(p));
if (missing.length) console.error(`\n${'!'.repeat(90)}\n!! sandbox allowlist: NOT RUN: ${missing.join(', ')} not installed\n${'!'.repeat(90)}\n`);

describe.skipIf(missing.length > 0)('a sandboxed session with --network allowlist', () => {
  let rig: SandboxRig;
  const servers: http.Server[] = [];
  const ports: number[] = [];
  beforeAll(async () => {
    rig = new SandboxRig();
    for (const word of ['allowed', 'forbidden']) {
      const server = http.createServer((_req, res) => res.end(`${word}-service\n`));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      ports.push((server.address() as AddressInfo).port);
    }
  });
  afterAll(async () => {
    rig?.dispose();
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });

  it('reaches the allowed port through the proxy; the other is refused, and host.json and explain say which it tried', async () => {
    const [a, b] = ports as [number, number];
    const curl = (port: number, tag: string, more = '') => `curl -s -m 10 ${more} -o /dev/null -w "${tag}=%{http_code}\\n" http://127.0.0.1:${port}/`;
    const script = [curl(a, 'A'), curl(b, 'B'), curl(b, 'B2'), curl(a, 'DIRECT', "--noproxy '*'")].join('; ');
    const { screen, rec } = await rig.run(script, { sandbox: { backend: 'bwrap', network: 'allowlist', allowHosts: [`127.0.0.1:${a}`] } });
    expect(screen).toContain('A=200');
    expect(screen).toContain('B=403');
    // Past the proxy there is no way out: the sandbox's loopback is its own.
    expect(screen).toContain('DIRECT=000');
    expect(rec.sandboxDenied).toEqual([expect.objectContaining({ host: '127.0.0.1', port: b, count: 2 })]);
    expect(cli(rig.board, ['explain', rec.id]).stdout).toContain(`127.0.0.1:${b}`);
  });

  it("srt's socat on the host side ends with the runner, even one killed outright", async () => {
    const rec = await rig.start('sleep 120', { sandbox: { backend: 'bwrap', network: 'allowlist' } });
    const log = path.join(rig.board, 'sessions', rec.id, 'runner.log');
    const socket = await waitFor('the proxy listening', () => /network proxy: listening on (\S+)/.exec(fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '')?.[1] ?? null, 20_000);
    const socats = () =>
      fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
        try {
          const argv = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').split('\0');
          return argv.some((a) => a.includes('socat')) && argv.some((a) => a.includes(`UNIX-LISTEN:${socket}`));
        } catch {
          return false; // gone while read
        }
      });
    expect(socats().length).toBeGreaterThan(0);
    process.kill(readHost(rig.board, rec.id).runnerPid!, 'SIGKILL');
    await waitFor('the host-side socat gone', () => (socats().length === 0 ? true : null), 10_000);
  });
});
