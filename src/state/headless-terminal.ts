/**
 * The headless terminal (@xterm/headless, a CommonJS package), loaded the one way that works from
 * ESM. Every terminal we make comes from `newTerminal`, which also applies the workaround for the
 * xterm bug in src/core/terminal/xterm-internals.ts. Its serializer, for clients only, is
 * src/client/serialize-addon.ts.
 */
import headless from '@xterm/headless';
import { patchXtermBugs } from '../core/terminal/xterm-internals.js';

export const Terminal = headless.Terminal;
export type Terminal = InstanceType<typeof headless.Terminal>;
export type TerminalOptions = ConstructorParameters<typeof headless.Terminal>[0];

export function newTerminal(options: TerminalOptions): Terminal {
  const term = new Terminal(options);
  patchXtermBugs(term);
  return term;
}
