/**
 * xterm.js, loaded when first needed: it is about 85% of the page's script (87 KB of 105 gzip),
 * and the list (what a phone opens to, and what a notification's tap passes through) needs none
 * of it. The page asks for it as soon as the first rows are drawn (preloadXterm), so a session
 * opened after that finds it there; one opened before waits for it (its frames are held meanwhile:
 * page-model.ts).
 */
import type { FitAddon } from '@xterm/addon-fit';
import type { Terminal } from '@xterm/xterm';

export interface XtermLib {
  Terminal: typeof Terminal;
  FitAddon: typeof FitAddon;
}

let loading: Promise<XtermLib> | null = null;

export function loadXterm(): Promise<XtermLib> {
  loading ??= Promise.all([import('@xterm/xterm'), import('@xterm/addon-fit')]).then(([x, f]) => ({ Terminal: x.Terminal, FitAddon: f.FitAddon }));
  return loading;
}

/** Starts the load without waiting for it (a failed load is tried again by the view that needs it). */
export function preloadXterm(): void {
  loadXterm().catch(() => {
    loading = null;
  });
}
