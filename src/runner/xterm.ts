/**
 * The headless terminal and its serializer, loaded the one way that works from
 * ESM for these CommonJS packages, plus readers for the state xterm keeps but
 * does not expose. Those readers use private fields: the snapshot property
 * test (test/integration/snapshot-property.test.ts) fails if an upgrade moves them.
 */
import headless from '@xterm/headless';
import serialize from '@xterm/addon-serialize';

export const Terminal = headless.Terminal;
export type Terminal = InstanceType<typeof headless.Terminal>;
export const SerializeAddon = serialize.SerializeAddon;
export type SerializeAddon = InstanceType<typeof serialize.SerializeAddon>;

interface XtermInternals {
  _core?: {
    buffer?: { scrollTop: number; scrollBottom: number };
    coreService?: { isCursorHidden: boolean };
  };
}

export interface ScrollRegion { top: number; bottom: number }

/** The active buffer's scroll region, 0-based inclusive. */
export function scrollRegionOf(term: Terminal): ScrollRegion {
  const buf = (term as unknown as XtermInternals)._core?.buffer;
  if (!buf) return { top: 0, bottom: term.rows - 1 };
  return { top: buf.scrollTop, bottom: buf.scrollBottom };
}

export function cursorHiddenOf(term: Terminal): boolean {
  return (term as unknown as XtermInternals)._core?.coreService?.isCursorHidden ?? false;
}
