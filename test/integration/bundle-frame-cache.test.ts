/**
 * The frame cache (src/ui/ink/frame-cache.ts) is in the bundled board too: bundled as
 * scripts/bundle.mjs bundles the CLI (Ink inside the bundle), the cache must wrap the Output
 * class the bundle's own Ink draws with. It once found Ink's output.js by a path worked out at
 * run time, which esbuild cannot follow: the bundle then patched a second copy read from disk,
 * `frameCache.installed` said yes, and every frame of the real board was built whole (about
 * 40 ms of CPU per update with 100 sessions, against 11 in the tests).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/home.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Draws two frames with the bundled Ink into a fake terminal and prints the cache's counts. */
const ENTRY = `
import { EventEmitter } from 'node:events';
import React from 'react';
import { render, Text } from 'ink';
import { frameCache } from ${JSON.stringify(path.join(ROOT, 'src', 'ui', 'ink', 'frame-cache.ts'))};
class Out extends EventEmitter {
  isTTY = true; columns = 40; rows = 10;
  write(_d, cb, cb2) { (typeof cb === 'function' ? cb : cb2)?.(); return true; }
}
const out = new Out();
const app = render(React.createElement(Text, null, 'one'), { stdout: out, stderr: out, patchConsole: false, exitOnCtrlC: false });
await new Promise((r) => setTimeout(r, 50));
app.rerender(React.createElement(Text, null, 'two'));
await new Promise((r) => setTimeout(r, 50));
app.unmount();
console.log(JSON.stringify({ installed: frameCache.installed, built: frameCache.misses, reused: frameCache.hits }));
`;

describe('the bundled board', () => {
  it('draws through the frame cache: the Output it wraps is the one the bundled Ink uses', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-bundle-cache-'));
    dirs.push(dir);
    const entry = path.join(dir, 'entry.mjs');
    fs.writeFileSync(entry, ENTRY);
    const outdir = path.join(dir, 'out');
    // scripts/bundle.mjs's options for the ES bundle (what the board runs from), its lazy chunks too.
    const build =
      `import { build } from 'esbuild';\n` +
      `import { builtinsByRequire } from ${JSON.stringify(path.join(ROOT, 'scripts', 'bundle-builtins.mjs'))};\n` +
      `await build({ entryPoints: [${JSON.stringify(entry)}], outdir: ${JSON.stringify(outdir)}, splitting: true, bundle: true, format: 'esm', platform: 'node', target: 'node20', ` +
      `external: ['node-pty', 'react-devtools-core'], plugins: [builtinsByRequire], nodePaths: [${JSON.stringify(path.join(ROOT, 'node_modules'))}], ` +
      `banner: { js: "import { createRequire as __abCreateRequire } from 'node:module'; const require = __abCreateRequire(import.meta.url);" }, logLevel: 'error' });\n`;
    const b = spawnSync(process.execPath, ['--input-type=module', '-e', build], { cwd: ROOT, encoding: 'utf8' });
    expect(b.stderr).toBe('');
    // Ink draws nothing until exit under CI: this is a user's terminal. NODE_PATH: the packages
    // are found from here as from dist/bundle (what a lookup at run time would find).
    const env = { ...process.env, CI: 'false', NODE_ENV: 'production', NODE_PATH: path.join(ROOT, 'node_modules') };
    const r = spawnSync(process.execPath, [path.join(outdir, 'entry.js')], { cwd: dir, encoding: 'utf8', env });
    expect(r.status, r.stderr).toBe(0); // (its stderr gets the cursor shown again: Ink's exit)
    const got = JSON.parse(r.stdout) as { installed: boolean; built: number; reused: number };
    expect(got.installed).toBe(true);
    // Each frame's rows went through the cache: built afresh or taken from the last frame.
    expect(got.built + got.reused).toBeGreaterThanOrEqual(2);
    expect(got.built).toBeGreaterThanOrEqual(2); // 'one', then 'two'
  });
});
