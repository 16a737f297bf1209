/**
 * This copy of agent-board: a clone (its sources, built by `npm run build`) or an installed
 * package (`npm install -g` of its tarball, whose files are package.json's `files`: no sources, no
 * build tools). What puts a missing part back differs, so a message that names the fix asks here.
 * bin/agent-board and scripts/postinstall.cjs, CommonJS, tell the two apart the same way.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The copy's root: two folders above this module, from src/state/, dist/state/ and dist/bundle/ alike.
 * What a module deeper down finds in the copy (the runner's bundle, the demo agent, our addons) it
 * finds from here, so moving that module to another folder cannot break the path.
 */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A clone has its TypeScript project, which no installed copy ships. */
function isClone(): boolean {
  return fs.existsSync(path.join(ROOT, 'tsconfig.json'));
}

/**
 * What puts back a part `npm run build` makes (dist/bundle/): the build in a clone; in an
 * installed copy, a new install (its tarball was packed after the build, so the part was lost).
 */
export function rebuildFix(): string {
  return isClone() ? `run npm run build in ${ROOT}` : `this installed copy (${ROOT}) is incomplete: install agent-board again`;
}

/** What builds our native addons (src/runner/native), said after "is not built". */
export function nativeBuildFix(): string {
  return isClone() ? 'npm run build:native' : 'its install could not build it: install agent-board again with python3, make and a C compiler on PATH';
}

/**
 * Why node-pty cannot be loaded (so no session can start) and what fixes it; null when it loads.
 * It loads node-pty, native part and all: only for doctor and a start that failed.
 */
export function ptyProblem(): { why: string; fix: string } | null {
  try {
    createRequire(import.meta.url)('node-pty');
    return null;
  } catch (err) {
    const msg = (err as Error).message;
    const why = msg.startsWith('Failed to load native module') ? `its native part (pty.node) is not built for ${process.platform}-${process.arch}` : msg.split('\n')[0]!;
    const fix = isClone()
      ? `run npm rebuild node-pty in ${ROOT} (it builds from source: python3, make, g++)`
      : "install agent-board again with node-pty's install script allowed: npm install -g --allow-scripts=node-pty,<the tarball's full path> <the tarball's full path>";
    return { why, fix };
  }
}
