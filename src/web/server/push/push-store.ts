/**
 * Who gets pushes, per paired device: its subscriptions (one per browser profile that allowed
 * notifications), the sessions it muted, and whether it is in quiet mode. Kept in
 * `<home>/web/push.json` (0600), written on every change, read once at start: the server is the
 * one process that writes it.
 */
import type { PushSubscriptionJson } from '../../../core/web/web-protocol.js';
import { pushFile, readJson, writePrivateJson } from './push-files.js';

/** The newest subscriptions a device keeps: a browser that subscribes again gets a new endpoint, and a bound keeps dead ones from piling up. */
export const MAX_SUBSCRIPTIONS_PER_DEVICE = 5;

interface PushFile {
  subs: Record<string, PushSubscriptionJson[]>;
  muted: Record<string, string[]>;
  quiet: string[];
}

const isSub = (v: unknown): v is PushSubscriptionJson => {
  const s = v as Partial<PushSubscriptionJson> | null;
  return typeof s?.endpoint === 'string' && typeof s.keys?.p256dh === 'string' && typeof s.keys.auth === 'string';
};
const isRecordOf = <T>(v: unknown, item: (x: unknown) => x is T): v is Record<string, T[]> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((list) => Array.isArray(list) && list.every(item));
const isString = (x: unknown): x is string => typeof x === 'string';

function parse(file: string, v: unknown): PushFile {
  if (v === null) return { subs: {}, muted: {}, quiet: [] };
  const o = v as Partial<PushFile>;
  if (!isRecordOf(o.subs, isSub) || !isRecordOf(o.muted, isString) || !Array.isArray(o.quiet) || !o.quiet.every(isString)) {
    throw new Error(`${file} is not what agent-board writes (subs, muted, quiet): fix or remove it`);
  }
  return { subs: o.subs, muted: o.muted, quiet: o.quiet };
}

export class PushStore {
  private readonly data: PushFile;
  private readonly file: string;

  constructor(private readonly home: string) {
    this.file = pushFile(home);
    this.data = parse(this.file, readJson(this.file));
  }

  /** Every device's subscriptions, as [deviceId, sub] pairs. */
  subscriptions(): [string, PushSubscriptionJson][] {
    return Object.entries(this.data.subs).flatMap(([device, list]) => list.map((s) => [device, s] as [string, PushSubscriptionJson]));
  }

  /** Adds a subscription to a device (an endpoint another device had moves here: one browser, one owner). */
  subscribe(deviceId: string, sub: PushSubscriptionJson): void {
    for (const list of Object.values(this.data.subs)) this.dropFrom(list, sub.endpoint);
    const list = (this.data.subs[deviceId] ??= []);
    list.push({ endpoint: sub.endpoint, keys: { p256dh: sub.keys.p256dh, auth: sub.keys.auth } });
    list.splice(0, Math.max(0, list.length - MAX_SUBSCRIPTIONS_PER_DEVICE));
    this.prune();
    this.save();
  }

  /** Forgets an endpoint (the push service said it is gone); false when it was not kept. */
  remove(endpoint: string): boolean {
    let found = false;
    for (const list of Object.values(this.data.subs)) found = this.dropFrom(list, endpoint) || found;
    if (!found) return false;
    this.prune();
    this.save();
    return true;
  }

  isMuted(deviceId: string, sessionId: string): boolean {
    return this.data.muted[deviceId]?.includes(sessionId) ?? false;
  }

  mute(deviceId: string, sessionId: string, muted: boolean): void {
    if (this.isMuted(deviceId, sessionId) === muted) return;
    const list = (this.data.muted[deviceId] ??= []);
    if (muted) list.push(sessionId);
    else list.splice(list.indexOf(sessionId), 1);
    this.prune();
    this.save();
  }

  isQuiet(deviceId: string): boolean {
    return this.data.quiet.includes(deviceId);
  }

  quiet(deviceId: string, quiet: boolean): void {
    if (this.isQuiet(deviceId) === quiet) return;
    if (quiet) this.data.quiet.push(deviceId);
    else this.data.quiet.splice(this.data.quiet.indexOf(deviceId), 1);
    this.save();
  }

  /** A device revoked: nothing of it is kept. */
  forget(deviceId: string): void {
    if (!this.data.subs[deviceId] && !this.data.muted[deviceId] && !this.isQuiet(deviceId)) return;
    delete this.data.subs[deviceId];
    delete this.data.muted[deviceId];
    this.data.quiet = this.data.quiet.filter((d) => d !== deviceId);
    this.save();
  }

  /** Empty lists go: the file says only what is set. */
  private prune(): void {
    for (const [k, v] of Object.entries(this.data.subs)) if (v.length === 0) delete this.data.subs[k];
    for (const [k, v] of Object.entries(this.data.muted)) if (v.length === 0) delete this.data.muted[k];
  }

  private dropFrom(list: PushSubscriptionJson[], endpoint: string): boolean {
    const i = list.findIndex((s) => s.endpoint === endpoint);
    if (i < 0) return false;
    list.splice(i, 1);
    return true;
  }

  private save(): void {
    writePrivateJson(this.home, this.file, this.data);
  }
}
