/**
 * Web Push on this browser: the service worker registered, the user's permission asked, and a
 * subscription made with the server's VAPID key (the `welcome` frame's), which the page then sends
 * as `subscribe`. Every failure is a line the page shows (a page over plain http to a LAN address
 * has no service worker; the user may say no).
 */
import type { PushSubscriptionJson } from '../../core/web/web-protocol.js';

/** The VAPID public key (base64url) as the bytes pushManager.subscribe takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** Registers the service worker (the PWA's, and the one push notifications need). */
export function registerWorker(): Promise<ServiceWorkerRegistration> {
  if (!('serviceWorker' in navigator)) return Promise.reject(new Error('this browser has no service workers here (they need https or localhost)'));
  return navigator.serviceWorker.register('/sw.js', { scope: '/' });
}

export type PushResult = { ok: true; sub: PushSubscriptionJson } | { ok: false; line: string };

export async function enablePush(vapidKey: string): Promise<PushResult> {
  try {
    if (!('Notification' in window) || !('PushManager' in window)) return { ok: false, line: 'this browser cannot receive push notifications here (they need https or localhost; on an iPhone, add the page to the home screen first)' };
    await registerWorker();
    const reg = await navigator.serviceWorker.ready;
    const permission = await Notification.requestPermission();
    if (permission !== 'granted') return { ok: false, line: `notifications are ${permission === 'denied' ? 'blocked for this site in the browser settings' : 'not allowed'}` };
    const sub = (await reg.pushManager.getSubscription()) ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(vapidKey) }));
    const json = sub.toJSON();
    const p256dh = json.keys?.p256dh;
    const auth = json.keys?.auth;
    if (!json.endpoint || !p256dh || !auth) return { ok: false, line: 'the browser gave a push subscription without its keys' };
    return { ok: true, sub: { endpoint: json.endpoint, keys: { p256dh, auth } } };
  } catch (e) {
    return { ok: false, line: `notifications could not be turned on: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** Whether this browser already has a push subscription (the toggle shows on). */
export async function hasPush(): Promise<boolean> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return false;
  const reg = await navigator.serviceWorker.getRegistration('/');
  return (await reg?.pushManager.getSubscription()) != null;
}

export async function disablePush(): Promise<void> {
  const reg = await navigator.serviceWorker.getRegistration('/');
  await (await reg?.pushManager.getSubscription())?.unsubscribe();
}
