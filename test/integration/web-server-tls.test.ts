/**
 * Where the web server may listen (docs/web.md, "Reaching it from a phone"): loopback by default,
 * another address only with TLS or --insecure-http (warned), and HTTPS with the user's own
 * certificate (made here by openssl) with a Secure cookie.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, destroyHome, makeHome } from '../helpers/home.js';
import { openWs, pairDevice, request, startWeb, stopWeb } from './web-server-helpers.js';

let home: string;
beforeEach(() => {
  home = makeHome();
});
afterEach(() => {
  stopWeb(home);
  destroyHome(home);
});

describe('agent-board web: where it listens', () => {
  it('refuses an address other than loopback without TLS: exit 2, one line, nothing started', () => {
    for (const host of ['0.0.0.0', '192.168.1.20', '::']) {
      const r = cli(home, ['web', '--port', '0', '--host', host]);
      expect(r.code, host).toBe(2);
      expect(r.stderr.trim().split('\n'), host).toHaveLength(1);
      expect(r.stderr).toMatch(/refusing to listen on .* without TLS/);
      expect(cli(home, ['web', '--status']).code).toBe(1);
    }
  });

  it('with --insecure-http it listens there, and warns on every start', async () => {
    const { info, run } = startWeb(home, ['--host', '0.0.0.0', '--insecure-http']);
    expect(run.stderr).toMatch(/warning: listening on 0\.0\.0\.0 over plain HTTP/);
    expect(info.host).toBe('0.0.0.0');
    expect((await request(`http://127.0.0.1:${info.port}/`, '/')).status).toBe(200);
    // A second start (already running) warns again: the warning is about how it was asked for.
    const again = cli(home, ['web', '--port', '0', '--host', '0.0.0.0', '--insecure-http']);
    expect(again.stderr).toMatch(/warning: listening on 0\.0\.0\.0 over plain HTTP/);
  });

  it('--tls-cert and --tls-key go together', () => {
    const r = cli(home, ['web', '--port', '0', '--tls-cert', '/nonexistent.pem']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--tls-cert and --tls-key go together/);
  });

  it('serves HTTPS with a certificate given (on any address), with HSTS and a Secure cookie, and a wss socket', async () => {
    const cert = path.join(home, 'cert.pem');
    const key = path.join(home, 'key.pem');
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost'], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    const { info, run } = startWeb(home, ['--host', '0.0.0.0', '--tls-cert', cert, '--tls-key', key]);
    expect(run.stderr).not.toMatch(/warning/);
    expect(info.tls).toBe(true);
    const url = `https://127.0.0.1:${info.port}/`;
    expect(info.url).toMatch(new RegExp(`^https://.*:${info.port}/$`));
    const page = await request(url, '/');
    expect(page.status).toBe(200);
    expect(page.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    // Plain HTTP on the TLS port is no way in.
    await expect(request(`http://127.0.0.1:${info.port}/`, '/api/me')).rejects.toThrow();

    const dev = await pairDevice(home, url);
    expect(dev.setCookie).toMatch(/; Secure$/);
    const ws = await openWs(url, { cookie: dev.cookie });
    if (!ws.ok) throw new Error(`refused: ${ws.status}`);
    expect((await ws.first)[0]).toMatchObject({ t: 'welcome', device: dev.id });
    ws.ws.close();
    // An http:// page is another origin for a TLS server.
    expect(await openWs(url, { cookie: dev.cookie, origin: `http://127.0.0.1:${info.port}` })).toEqual({ ok: false, status: 403 });
  });
});
