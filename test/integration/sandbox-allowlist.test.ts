/**
 * `--network allowlist` end to end (docs/sandbox.md, "What it may reach"): a real runner starts
 * srt's proxy, the sandboxed program reaches an allowed loopback port through it, a port not on
 * the list is refused with 403, and host.json keeps the refusal (host, port, count) for `explain`.
 * Two HTTP servers on the host's loopback stand in for an allowed and a forbidden service.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProgram } from '../../src/state/process/find-program.js';
import { cli } from '../helpers/home.js';
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
});
