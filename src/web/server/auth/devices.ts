/**
 * The paired devices of a home: devices.json (0600) keeps, per device, its id, name, whether it is
 * read-only, and the sha256 of its token (never the token). The server checks a cookie's token
 * here on every request and upgrade (reading the file each time, so a `web devices --revoke` from
 * the CLI counts at once), and notes when a device was last seen.
 */
import type { Clock } from '../../../core/clock.js';
import { isoTime } from '../../../core/iso-time.js';
import type { WebDevice } from '../web-types.js';
import { devicesFile, readJson, writePrivateJson } from '../web-home.js';
import { hashSecret, newDeviceId, newToken, sameHash } from './secrets.js';

export interface DeviceRecord {
  id: string;
  name: string;
  tokenHash: string;
  readOnly: boolean;
  createdAt: string;
  /** ISO time of its last request or connection (null: never since pairing). */
  lastSeen: string | null;
}

/** lastSeen is written at most this often per device: a page's requests would otherwise rewrite the file each time. */
export const LAST_SEEN_WRITE_MS = 60_000;
/** A device's name is for a list: one line, this long at most. */
const NAME_MAX = 60;

/** A name as shown: control characters out, one line, cut to NAME_MAX; empty is "a browser". */
export function deviceName(raw: unknown): string {
  const s = typeof raw === 'string' ? raw.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, NAME_MAX) : '';
  return s || 'a browser';
}

const isDevice = (v: unknown): v is DeviceRecord => {
  const o = v as Partial<DeviceRecord> | null;
  return !!o && typeof o.id === 'string' && typeof o.tokenHash === 'string' && typeof o.name === 'string';
};

/** Every paired device, as devices.json holds them now. */
export function listDevices(home: string): DeviceRecord[] {
  const v = readJson(devicesFile(home)) as { devices?: unknown } | null;
  return Array.isArray(v?.devices) ? v.devices.filter(isDevice).map((d) => ({ ...d, readOnly: d.readOnly === true, lastSeen: d.lastSeen ?? null })) : [];
}

function save(home: string, devices: readonly DeviceRecord[]): void {
  writePrivateJson(devicesFile(home), 'the paired devices', { devices });
}

/** A new device; its token is returned this once (for the cookie) and only its hash is kept. */
export function addDevice(home: string, clock: Clock, o: { name: string; readOnly: boolean }): { device: DeviceRecord; token: string } {
  const token = newToken();
  const taken = new Set(listDevices(home).map((d) => d.id));
  let id = newDeviceId();
  while (taken.has(id)) id = newDeviceId();
  const now = isoTime(clock.now());
  const device: DeviceRecord = { id, name: deviceName(o.name), tokenHash: hashSecret(token), readOnly: o.readOnly, createdAt: now, lastSeen: now };
  save(home, [...listDevices(home), device]);
  return { device, token };
}

/** The device whose token this is, or null (unknown, revoked); it is marked seen. */
export function checkToken(home: string, clock: Clock, token: string): WebDevice | null {
  const hash = hashSecret(token);
  const found = listDevices(home).find((d) => sameHash(d.tokenHash, hash));
  if (!found) return null;
  markSeen(home, clock, [found.id]);
  return { id: found.id, name: found.name, readOnly: found.readOnly };
}

/**
 * These devices were seen now (a request, or a page still connected): each lastSeen over
 * LAST_SEEN_WRITE_MS old is brought up to now, read again just before the write, so a revoke
 * made in between is never undone.
 */
export function markSeen(home: string, clock: Clock, ids: readonly string[]): void {
  const now = clock.now();
  const stale = (d: DeviceRecord) => ids.includes(d.id) && (d.lastSeen === null || now - Date.parse(d.lastSeen) >= LAST_SEEN_WRITE_MS);
  const fresh = listDevices(home);
  if (fresh.some(stale)) save(home, fresh.map((d) => (stale(d) ? { ...d, lastSeen: isoTime(now) } : d)));
}

/** Ends a device (by its id, or a unique prefix of it); its token is refused from then on. Null: no such device. */
export function revokeDevice(home: string, ref: string): DeviceRecord | { ambiguous: DeviceRecord[] } | null {
  const all = listDevices(home);
  const exact = all.find((d) => d.id === ref);
  const matches = exact ? [exact] : all.filter((d) => d.id.startsWith(ref));
  if (matches.length === 0) return null;
  if (matches.length > 1) return { ambiguous: matches };
  const gone = matches[0]!;
  save(home, all.filter((d) => d.id !== gone.id));
  return gone;
}
