/**
 * Nobody else gets in (docs/web.md, "Security"): each refusal of the web server, tried against a
 * real server in a temp home with a real WebSocket client.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, destroyHome, makeHome } from '../helpers/home.js';
import { openWs, originOf, pairCode, pairDevice, request, startWeb, stopWeb, tradeCode, type Info } from './web-server-helpers.js';

// One server for the file: each test pairs what it needs.
let home: string;
let info: Info;
beforeAll(() => {
  home = makeHome();
  info = startWeb(home).info;
});
afterAll(() => {
  stopWeb(home);
  destroyHome(home);
});

describe('the web server refuses', () => {
  it('a request without a device cookie: 401 on /api/ws (plain and upgrade) and on an /api route; the page itself is served', async () => {
    expect((await request(info.url, '/api/me')).status).toBe(401);
    expect((await request(info.url, '/api/ws')).status).toBe(401);
    expect((await request(info.url, '/api/anything')).status).toBe(401);
    expect(await openWs(info.url)).toEqual({ ok: false, status: 401 });
    expect(await openWs(info.url, { cookie: 'ab_device=' + 'x'.repeat(43) })).toEqual({ ok: false, status: 401 });
    const page = await request(info.url, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    );
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-store');
  });

  it('a revoked device: its open socket is closed at once (4401), its cookie is refused after', async () => {
    const dev = await pairDevice(home, info.url);
    const ws = await openWs(info.url, { cookie: dev.cookie });
    if (!ws.ok) throw new Error(`refused: ${ws.status}`);
    await ws.first;
    const closed = new Promise<number>((resolve) => ws.ws.once('close', (code) => resolve(code)));
    const t0 = Date.now();
    const r = cli(home, ['web', 'devices', '--revoke', dev.id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`revoked ${dev.id}`);
    expect(await closed).toBe(4401);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(await openWs(info.url, { cookie: dev.cookie })).toEqual({ ok: false, status: 401 });
    expect((await request(info.url, '/api/me', { headers: { Cookie: dev.cookie } })).status).toBe(401);
    expect(cli(home, ['web', 'devices', '--revoke', dev.id]).code).toBe(1);
  });

  it('another Origin: 403 for an upgrade (or none at all) and for a request, even with a good cookie', async () => {
    const dev = await pairDevice(home, info.url);
    expect(await openWs(info.url, { cookie: dev.cookie, origin: 'http://evil.example' })).toEqual({ ok: false, status: 403 });
    expect(await openWs(info.url, { cookie: dev.cookie, origin: null })).toEqual({ ok: false, status: 403 });
    // Same host, another port: another origin.
    const u = new URL(info.url);
    expect(await openWs(info.url, { cookie: dev.cookie, origin: `http://${u.hostname}:${Number(u.port) + 1}` })).toEqual({ ok: false, status: 403 });
    expect((await request(info.url, '/api/me', { headers: { Cookie: dev.cookie, Origin: 'http://evil.example' } })).status).toBe(403);
    const pair = await request(info.url, '/api/pair', { method: 'POST', headers: { Origin: 'http://evil.example' }, body: '{"code":"AAAAAAAA"}' });
    expect(pair.status).toBe(403);
    // Its own origin: in.
    const ok = await openWs(info.url, { cookie: dev.cookie, origin: originOf(info.url) });
    expect(ok.ok).toBe(true);
    if (ok.ok) ok.ws.close();
  });

  it('a pairing code used twice: the second gets no device', async () => {
    const code = pairCode(home);
    expect((await tradeCode(info.url, code)).status).toBe(200);
    const again = await tradeCode(info.url, code);
    expect(again.status).toBe(401);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(JSON.parse(again.body).error).toMatch(/no pairing code is open/);
  });

  it('an expired pairing code', async () => {
    // A code opened 5 minutes and a second ago: pairing.json as `web pair` wrote it then.
    const code = 'ABCDEFGH';
    const hash = crypto.createHash('sha256').update(code).digest('hex');
    fs.writeFileSync(path.join(home, 'web', 'pairing.json'), JSON.stringify({ codeHash: hash, expiresAt: Date.now() - 1000, tries: 0, readOnly: false }), { mode: 0o600 });
    const r = await tradeCode(info.url, code);
    expect(r.status).toBe(401);
    expect(JSON.parse(r.body).error).toMatch(/expired/);
    expect(r.headers['set-cookie']).toBeUndefined();
    expect(fs.existsSync(path.join(home, 'web', 'pairing.json'))).toBe(false);
  });

  it('too many wrong codes: the fifth ends the code, and the right one no longer works', async () => {
    const code = pairCode(home);
    for (let i = 1; i <= 4; i++) {
      const r = await tradeCode(info.url, 'WRONGONE');
      expect(r.status).toBe(401);
      expect(JSON.parse(r.body).error).toBe(`wrong code (${5 - i} ${5 - i === 1 ? 'try' : 'tries'} left)`);
    }
    const fifth = await tradeCode(info.url, 'WRONGONE');
    expect(fifth.status).toBe(429);
    expect(JSON.parse(fifth.body).error).toMatch(/that code is void/);
    const right = await tradeCode(info.url, code);
    expect(right.status).toBe(401);
    expect(right.headers['set-cookie']).toBeUndefined();
  });

  it('a pairing request that is not one: not JSON (400), too large (413), not a POST (405); none costs the open code a try', async () => {
    const code = pairCode(home);
    const post = (body: string) => request(info.url, '/api/pair', { method: 'POST', headers: { Origin: originOf(info.url) }, body });
    expect((await post('code=ABCD')).status).toBe(400);
    expect((await post('{"code": 12345678}')).status).toBe(400);
    expect((await post(JSON.stringify({ code: 'A'.repeat(5000) }))).status).toBe(413);
    expect((await request(info.url, '/api/pair')).status).toBe(405);
    expect((await tradeCode(info.url, code)).status).toBe(200);
  });

  it('a code is typed as a person types it: lower case and a dash are fine', async () => {
    const code = pairCode(home);
    const r = await tradeCode(info.url, `${code.slice(0, 4).toLowerCase()}-${code.slice(4).toLowerCase()}`);
    expect(r.status).toBe(200);
  });

  it('any path outside the bundle: 404, never a file', async () => {
    const dev = await pairDevice(home, info.url);
    for (const p of ['/../package.json', '/%2e%2e/package.json', '/%2e%2e%2fpackage.json', '/web/../../x', '/..%2f..%2fpackage.json', '/package.json', '/index.html/../../package.json', '//etc/passwd', '/dist/bundle/main.js', '/web-server.cjs']) {
      const r = await request(info.url, p, { headers: { Cookie: dev.cookie } });
      expect(r.status, p).toBe(404);
      expect(r.body, p).toBe('not found\n');
    }
    expect((await request(info.url, '/index.html')).status).toBe(200);
  });
});
