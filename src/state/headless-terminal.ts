/**
 * The headless terminal (@xterm/headless, a CommonJS package), loaded the one way that works from
 * ESM. Every terminal we make comes from `newTerminal`, which also applies the workaround for the
 * xterm bug in src/core/terminal/xterm-internals.ts. Its serializer, for clients only, is
 * src/client/screen/serialize-addon.ts.
 */
import { createRequire } from 'node:module';
import type Headless from '@xterm/headless';
import { patchXtermBugs } from '../core/terminal/xterm-internals.js';

/**
 * Required, not imported: an ESM import of a CommonJS package runs Node's CommonJS export lexer
 * over it, a WebAssembly instance that stays in memory (about 5 MiB of every runner's RSS).
 */
const headless = createRequire(import.meta.url)('@xterm/headless') as typeof Headless;

export const Terminal = headless.Terminal;
export type Terminal = InstanceType<typeof headless.Terminal>;
export type TerminalOptions = ConstructorParameters<typeof headless.Terminal>[0];

export function newTerminal(options: TerminalOptions): Terminal {
  const term = new Terminal(options);
  patchXtermBugs(term);
  return term;
}
