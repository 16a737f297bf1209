// The in-page half of the web benchmark (bench/web.mjs): a script chromium runs in every page before
// the page's own, the same for wetty and for ours, so both are timed by the same code.
//
// What "painted" means here: the terminal's renderer has drawn the text. When the page exposes its
// xterm.js Terminal (wetty: `window.wetty_term`; ours: OURS.termHandle if the page sets it), the
// clock stops in the terminal's `onRender` event whose buffer holds the text: xterm fires it right
// after its renderer (DOM or WebGL alike) drew the rows, in the animation frame the browser then
// paints. Without a handle, it stops in the MutationObserver callback that first sees the text in
// the rows xterm's DOM renderer writes (`.xterm-rows`): the same animation frame, the observer runs
// right after the renderer's callback. The keystroke's clock starts in a capturing `keydown`
// listener of the window: the page's own path (the key into xterm, out on the WebSocket, the
// server, the PTY, the echo back, xterm's parse and render), not CDP's trip into the browser.
// Times are `performance.now()` in the page (ms since navigation start).

/** The init script for one page. cfg: { handle, rowsSelector, noWebgl }. */
export function probeScript(cfg) {
  return `(${install.toString()})(${JSON.stringify(cfg)});`;
}

/* eslint-disable */
// Runs in the page (serialised with toString: no closures over this module).
function install(cfg) {
  // The top page only: wetty's settings editor is an iframe, which has no terminal; a load watch
  // there would only wait for its timeout.
  if (window.top !== window) return;
  if (cfg.noWebgl) {
    // No WebGL context: xterm's WebGL addon throws on load and the page keeps the DOM renderer,
    // as wetty does on a phone (it loads the addon only when the user agent is not a mobile one).
    const get = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
      if (/webgl/i.test(String(kind))) return null;
      return get.call(this, kind, ...rest);
    };
  }
  const B = (window.__abBench = { keyAt: [], msgAt: [], loadedAt: null, method: null });
  window.addEventListener('keydown', () => B.keyAt.push(performance.now()), true);
  // The arrival of every WebSocket message: the page's share of a list update is from the
  // message that carried it to the row on screen.
  const WS = window.WebSocket;
  window.WebSocket = class extends WS {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', () => {
        B.msgAt.push(performance.now());
        if (B.msgAt.length > 4000) B.msgAt.splice(0, 2000);
      });
    }
  };

  const term = () => (cfg.handle ? window[cfg.handle] : null) || null;
  /** The terminal's visible lines, right-trimmed: from the buffer when we have the terminal, else from the DOM rows. */
  function lines() {
    const t = term();
    if (t) {
      const b = t.buffer.active;
      const out = [];
      for (let y = 0; y < t.rows; y++) out.push((b.getLine(b.viewportY + y)?.translateToString(true) ?? '').trimEnd());
      return out;
    }
    const rows = document.querySelector(cfg.rowsSelector);
    if (!rows) return [];
    return Array.from(rows.children, (r) => (r.textContent || '').replace(/\u00a0/g, ' ').trimEnd());
  }
  const tests = {
    lineEquals: (arg) => lines().some((l) => l === arg),
    contains: (arg) => lines().some((l) => l.includes(arg)),
    rowCount: (arg) => document.querySelectorAll(arg.selector).length >= arg.n,
    pageText: (arg) => (document.querySelector(arg.selector)?.textContent || '').includes(arg.text),
  };

  /**
   * Resolves with the time `tests[kind](arg)` first holds, checked where the page draws: the
   * terminal's onRender once there is a terminal handle, else (and for the list: `terminal` false)
   * a MutationObserver on the whole document. The handle is looked for on DOM changes (a terminal
   * is created by writing its element), never every frame: a page asking for every animation frame
   * gets its echo a frame later (docs/performance.md), and the probe must not be that page.
   */
  function watch(kind, arg, terminal, timeoutMs) {
    return new Promise((resolve, reject) => {
      const subs = [];
      let done = false;
      let onRenderOf = null;
      const finish = (ok, v) => {
        if (done) return;
        done = true;
        for (const s of subs) s();
        ok ? resolve(v) : reject(new Error(v));
      };
      const check = (how) => {
        if (!done && tests[kind](arg)) {
          B.method = how;
          finish(true, performance.now());
        }
      };
      const timer = setTimeout(() => finish(false, `timed out after ${timeoutMs} ms waiting for ${kind} ${JSON.stringify(arg)}`), timeoutMs);
      subs.push(() => clearTimeout(timer));
      const useTerm = () => {
        const t = terminal && cfg.handle ? term() : null;
        if (t && onRenderOf !== t) {
          onRenderOf = t;
          const d = t.onRender(() => check('xterm onRender + buffer'));
          subs.push(() => d.dispose());
          check('xterm buffer at hand-over');
        }
        return !!t;
      };
      const mo = new MutationObserver(() => {
        if (!useTerm()) check('DOM MutationObserver');
      });
      mo.observe(document, { childList: true, subtree: true, characterData: true });
      subs.push(() => mo.disconnect());
      if (!useTerm()) check('DOM at hand-over');
    });
  }

  /** Arms a watch; `result()` then resolves with {keyAt, seenAt, method}: keyAt the first keydown after arming. */
  B.arm = (kind, arg, terminal, timeoutMs) => {
    const k0 = B.keyAt.length;
    B.pending = watch(kind, arg, terminal, timeoutMs).then((seenAt) => ({ keyAt: B.keyAt[k0] ?? null, seenAt, method: B.method }));
    B.pending.catch(() => {});
  };
  B.result = () => B.pending;
  /** When the page drew kind/arg first since navigation start (for page loads). */
  B.load = (kind, arg, terminal, timeoutMs) => {
    B.loading = watch(kind, arg, terminal, timeoutMs).then((t) => (B.loadedAt = t));
    B.loading.catch(() => {});
  };
  B.info = () => {
    const t = term();
    const canvases = document.querySelectorAll('.xterm canvas').length;
    return { hasHandle: !!t, cols: t?.cols ?? null, rows: t?.rows ?? null, canvases, domRows: !!document.querySelector(cfg.rowsSelector) };
  };
  if (cfg.load) B.load(cfg.load.kind, cfg.load.arg, cfg.load.terminal, cfg.load.timeoutMs);
}
