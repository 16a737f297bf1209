/**
 * Our native addons (src/runner/native: the echo relay, the helper threads), built with node-gyp
 * by our postinstall (scripts/postinstall.cjs), in a clone's `npm ci` and an install alike. Each
 * is optional: without it, what it speeds up is done the way it was before, and the caller says
 * why in its log.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nativeBuildFix } from './this-copy.js';

/**
 * The addon at the first of `candidates` (paths relative to the module `fromUrl` names: src/,
 * dist/ and dist/bundle/ sit at different depths) that exists, or why it cannot be had, said as
 * the rest of a sentence about it: "is not built (npm run build:native)" (in a clone) or "cannot be loaded: …".
 */
export function loadAddon<T>(fromUrl: string, candidates: readonly string[]): T | string {
  const here = path.dirname(fileURLToPath(fromUrl));
  const file = candidates.map((p) => path.join(here, p)).find((p) => fs.existsSync(p));
  if (!file) return `is not built (${nativeBuildFix()})`;
  try {
    return createRequire(fromUrl)(file) as T;
  } catch (err) {
    return `cannot be loaded: ${(err as Error).message}`;
  }
}
