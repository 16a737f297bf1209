/** Pairing codes and device tokens on the clock given (src/web/server/auth): expiry, one use, the tries, the hashes kept. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDevice, checkToken, deviceName, LAST_SEEN_WRITE_MS, listDevices, markSeen, revokeDevice } from '../../src/web/server/auth/devices.js';
import { openPairing, PAIRING_TTL_MS, tradePairing } from '../../src/web/server/auth/pairing.js';
import { isLoopback, listenPolicy } from '../../src/web/server/listen-policy.js';
import { ensureWebDir } from '../../src/web/server/web-home.js';
import { FakeTime } from '../helpers/fake-time.js';
import { makeHome } from '../helpers/home.js';

let home: string;
let time: FakeTime;
beforeEach(() => {
  home = makeHome();
  ensureWebDir(home);
  time = new FakeTime(Date.parse('2026-01-01T00:00:00Z'));
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

describe('a pairing code', () => {
  it('is good until its five minutes are up, not a moment after', () => {
    const { code } = openPairing(home, time, { readOnly: false });
    time.advance(PAIRING_TTL_MS - 1);
    expect(tradePairing(home, time, code)).toEqual({ ok: true, readOnly: false });
    const late = openPairing(home, time, { readOnly: false });
    time.advance(PAIRING_TTL_MS);
    expect(tradePairing(home, time, late.code)).toMatchObject({ ok: false, why: 'expired' });
  });

  it('is kept only as a hash, and carries the read-only flag and the name it was opened with', () => {
    const { code } = openPairing(home, time, { readOnly: true, name: 'tablet' });
    expect(fs.readFileSync(path.join(home, 'web', 'pairing.json'), 'utf8')).not.toContain(code);
    expect(tradePairing(home, time, code)).toEqual({ ok: true, readOnly: true, name: 'tablet' });
    expect(tradePairing(home, time, code)).toMatchObject({ ok: false, why: 'none' });
  });

  it('a new code replaces the open one', () => {
    const first = openPairing(home, time, { readOnly: false });
    const second = openPairing(home, time, { readOnly: false });
    expect(tradePairing(home, time, first.code)).toMatchObject({ ok: false, why: 'wrong' });
    expect(tradePairing(home, time, second.code)).toMatchObject({ ok: true });
  });
});

describe('a device token', () => {
  it('is checked by its hash, notes lastSeen at most once a minute, and is refused once revoked', () => {
    const { device, token } = addDevice(home, time, { name: 'phone', readOnly: false });
    expect(fs.readFileSync(path.join(home, 'web', 'devices.json'), 'utf8')).not.toContain(token);
    expect(checkToken(home, time, token)).toEqual({ id: device.id, name: 'phone', readOnly: false });
    expect(checkToken(home, time, token + 'x')).toBeNull();
    const seen0 = listDevices(home)[0]!.lastSeen;
    time.advance(LAST_SEEN_WRITE_MS - 1);
    checkToken(home, time, token);
    expect(listDevices(home)[0]!.lastSeen).toBe(seen0);
    time.advance(1);
    checkToken(home, time, token);
    expect(listDevices(home)[0]!.lastSeen).toBe(new Date(time.now()).toISOString());
    expect(revokeDevice(home, device.id.slice(0, 3))).toMatchObject({ id: device.id });
    expect(checkToken(home, time, token)).toBeNull();
  });

  it('a page kept open marks its device seen; a device revoked meanwhile is not brought back', () => {
    const a = addDevice(home, time, { name: 'a', readOnly: false }).device;
    const b = addDevice(home, time, { name: 'b', readOnly: false }).device;
    time.advance(LAST_SEEN_WRITE_MS);
    revokeDevice(home, b.id);
    markSeen(home, time, [a.id, b.id]);
    expect(listDevices(home).map((d) => [d.id, d.lastSeen])).toEqual([[a.id, new Date(time.now()).toISOString()]]);
  });

  it("a device's name is one printable line", () => {
    expect(deviceName('  my\nphone\u0007 ')).toBe('my phone');
    expect(deviceName('')).toBe('a browser');
    expect(deviceName(42)).toBe('a browser');
    expect(deviceName('x'.repeat(200))).toHaveLength(60);
  });
});

describe('where the server may listen', () => {
  it('loopback always; elsewhere only with TLS or --insecure-http (then with a warning)', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopback(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', 'example.com']) expect(isLoopback(h), h).toBe(false);
    expect(listenPolicy({ host: '0.0.0.0', tls: false, insecureHttp: false })).toMatchObject({ ok: false });
    expect(listenPolicy({ host: '0.0.0.0', tls: true, insecureHttp: false })).toEqual({ ok: true, warning: null });
    expect(listenPolicy({ host: '0.0.0.0', tls: false, insecureHttp: true })).toMatchObject({ ok: true, warning: expect.stringMatching(/plain HTTP/) });
  });
});
