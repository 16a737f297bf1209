/**
 * The page's service worker (built to /sw.js): it makes the page an installable app and shows the
 * server's Web Push notifications ({title, body, id, url}: "<name> needs you" and its question, or
 * "<name> is done" and its last line). A tap focuses the page, or opens it, on `url` (`/#s=<id>`:
 * that session's terminal).
 */
/** The worker's global scope (lib WebWorker types `self` as any worker's). */
const sw = self as unknown as ServiceWorkerGlobalScope;

interface PushPayload {
  title?: unknown;
  body?: unknown;
  id?: unknown;
  url?: unknown;
}

/** Only a path of this site: a payload cannot send the user elsewhere. */
const safeUrl = (u: unknown): string => (typeof u === 'string' && u.startsWith('/') && !u.startsWith('//') ? u : '/');

sw.addEventListener('install', () => {
  void sw.skipWaiting();
});

sw.addEventListener('activate', (e) => {
  e.waitUntil(sw.clients.claim());
});

sw.addEventListener('push', (e) => {
  let p: PushPayload = {};
  try {
    p = (e.data?.json() ?? {}) as PushPayload;
  } catch {
    // Not JSON: shown as its text, so the user still learns something happened.
    p = { title: 'agent-board', body: e.data?.text() ?? '' };
  }
  const title = typeof p.title === 'string' && p.title !== '' ? p.title : 'agent-board';
  const tag = typeof p.id === 'string' ? p.id : undefined;
  e.waitUntil(
    sw.registration.showNotification(title, {
      body: typeof p.body === 'string' ? p.body : '',
      // One notification per session: a newer one replaces it instead of piling up.
      tag,
      icon: '/icon-192.png',
      badge: '/icon-192.png',
      data: { url: safeUrl(p.url) },
    }),
  );
});

sw.addEventListener('notificationclick', (e) => {
  e.notification.close();
  const url = safeUrl((e.notification.data as { url?: unknown } | null)?.url);
  e.waitUntil(
    (async () => {
      const wins = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const win = wins[0];
      if (win) {
        await win.focus();
        // The page moves to the view itself (its hash), keeping its socket.
        win.postMessage({ t: 'open-url', url });
        return;
      }
      await sw.clients.openWindow(url);
    })(),
  );
});

export {};
