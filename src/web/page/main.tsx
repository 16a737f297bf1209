/**
 * The page's composition root (bundled to app.js by scripts/bundle-web.mjs): the real clock and
 * timers, the WebSocket to /api/ws (the cookie authenticates it), the view in the URL's hash, the
 * pairing request, the service worker; then the Preact app.
 */
import { render } from 'preact';
import { browserClock, browserScheduler } from './browser-time.js';
import { CMD_ID_BYTES, cmdIdFrom } from './cmd-id.js';
import { App } from './components/App.js';
import { parseHash, routeHash, type Route } from './hash-route.js';
import { PageContext, type PageEnv } from './page-context.js';
import { PageModel } from './page-model.js';
import { registerWorker } from './push.js';
import { WebLink, type SocketLike } from './web-link.js';
import { preloadXterm } from './components/xterm-lib.js';

const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`;

/** A socket refused before it opened: the server answers a plain GET of /api/ws with 401 when this browser has no valid device cookie. */
async function unpaired(): Promise<boolean> {
  const r = await fetch('/api/ws', { credentials: 'same-origin', cache: 'no-store' });
  return r.status === 401;
}

/** The browser's WebSocket as the link's SocketLike. */
function browserSocket(url: string): SocketLike {
  const ws = new WebSocket(url);
  const s: SocketLike = { send: (d) => ws.send(d), close: (code) => ws.close(code), onopen: null, onmessage: null, onclose: null };
  ws.onopen = () => s.onopen?.();
  ws.onmessage = (e) => s.onmessage?.(e);
  ws.onclose = (e) => s.onclose?.(e);
  return s;
}

const link = new WebLink({ connect: () => browserSocket(wsUrl), scheduler: browserScheduler, probe: unpaired });
const first = parseHash(location.hash);
const model = new PageModel({ link, clock: browserClock, newCmdId: () => cmdIdFrom(crypto.getRandomValues(new Uint8Array(CMD_ID_BYTES))), route: first.route, scheduler: browserScheduler });
let pairCode = first.pairCode;
// The terminal's code comes after the list is up (src/web/page/components/xterm-lib.ts).
const onFirstRows = link.onMessage((m) => {
  if (m.t !== 'rows') return;
  onFirstRows.dispose();
  preloadXterm();
});

const touch = matchMedia('(pointer: coarse)').matches;

function nav(route: Route): void {
  const h = routeHash(route);
  if (h !== location.hash) history.pushState(null, '', h || `${location.pathname}${location.search}`);
  model.setRoute(route);
}

const followUrl = () => {
  const p = parseHash(location.hash);
  if (p.pairCode !== null) {
    pairCode = p.pairCode;
    draw();
    return;
  }
  model.setRoute(p.route);
};
addEventListener('popstate', followUrl);
addEventListener('hashchange', followUrl);

// Esc goes back to the list, unless it is a key for the program (typing into the terminal) or a field.
addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || model.state.route.view === 'list') return;
  const t = e.target instanceof HTMLElement ? e.target : null;
  if (t && (t.closest('.xterm') || t.matches('input, textarea'))) return;
  nav({ view: 'list' });
});

/** The server's reason, as JSON ({line} or {error}) or a short text. */
function refusal(body: string, status: number): string {
  try {
    const j = JSON.parse(body) as { line?: unknown; error?: unknown };
    const line = j.line ?? j.error;
    if (typeof line === 'string' && line !== '') return line;
  } catch {
    // Not JSON: the text itself, below.
  }
  const text = body.trim();
  return text !== '' && text.length < 300 ? text : `pairing failed (${status})`;
}

/** POST /api/pair; null when paired (the cookie is set), else the line to show. */
async function pair(code: string, name: string): Promise<string | null> {
  try {
    const r = await fetch('/api/pair', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, name }), credentials: 'same-origin' });
    if (!r.ok) {
      return refusal(await r.text(), r.status);
    }
  } catch (e) {
    return `the server could not be reached: ${e instanceof Error ? e.message : String(e)}`;
  }
  pairCode = null;
  history.replaceState(null, '', `${location.pathname}${location.search}`);
  link.start();
  draw();
  return null;
}

// A notification tapped while the page is open: the service worker asks us to show that view.
navigator.serviceWorker?.addEventListener('message', (e: MessageEvent<unknown>) => {
  const d = e.data as { t?: unknown; url?: unknown } | null;
  if (d?.t === 'open-url' && typeof d.url === 'string') nav(parseHash(new URL(d.url, location.href).hash).route);
});

// The tab (and the installed app's switcher) says how many sessions wait for the user.
model.onChange(() => {
  const waiting = model.state.rows.filter((r) => r.state === 'waiting' && !r.stale).length;
  const title = waiting > 0 ? `(${waiting}) agent-board` : 'agent-board';
  if (document.title !== title) document.title = title;
});

const env: PageEnv = { model, clock: browserClock, scheduler: browserScheduler, nav, touch };
const root = document.getElementById('app')!;
function draw(): void {
  render(
    <PageContext.Provider value={env}>
      <App pairCode={pairCode} pair={pair} />
    </PageContext.Provider>,
    root,
  );
}
draw();
if (pairCode === null) link.start();
// The PWA's worker (the app installable, the notifications shown); without one (plain http to a
// LAN address) the page works, only push and install are missing.
registerWorker().catch((e: unknown) => console.warn('agent-board: no service worker:', e));
