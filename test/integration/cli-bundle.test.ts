/**
 * The built CLI (scripts/bundle.mjs): bin/agent-board runs the hot commands from dist/bundle/hot.js
 * with V8's code cache and everything else from dist/bundle/main.js, says how to build (or, in an
 * installed copy, to install again) when there is nothing to run, and the bundles' stand-ins for
 * crypto's random ids are what crypto would give.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, cli, makeHome } from '../helpers/home.js';

const BUNDLE = path.join(ROOT, 'dist', 'bundle');
const dirs: string[] = [];
const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-bundle-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('the bundled CLI', () => {
  it('names the hot words it runs from the hot bundle, and V8 takes that bundle\'s code cache', () => {
    const { words } = JSON.parse(fs.readFileSync(path.join(BUNDLE, 'hot.json'), 'utf8')) as { words: string[] };
    expect(words).toEqual(expect.arrayContaining(['attach', 'send', 'hook', 'chat', '--version']));
    const file = path.join(BUNDLE, 'hot.js');
    // As bin/agent-board compiles it: a cache V8 refuses would cost every hot start its compile.
    const script = new vm.Script(fs.readFileSync(file, 'utf8'), { filename: file, cachedData: fs.readFileSync(`${file}.cache`) });
    expect(script.cachedDataRejected).toBe(false);
  });

  it('runs a hot and a cold command, each with its exit code', () => {
    const home = makeHome();
    dirs.push(home);
    expect(cli(home, ['--version'])).toMatchObject({ code: 0, stdout: '0.1.0\n' });
    expect(cli(home, ['ls'])).toMatchObject({ code: 0, stdout: expect.stringContaining('no sessions') });
    const peek = cli(home, ['peek', 'nosuch']); // peek is not hot: main.js
    expect(peek.code).toBe(3);
    expect(peek.stderr).toMatch(/^agent-board: .*nosuch/);
  });

  it('without the bundles, says how to make them (in a clone) or to install again (an installed copy) and exits 1', () => {
    const clone = tempDir();
    const installed = tempDir();
    for (const root of [clone, installed]) fs.cpSync(path.join(ROOT, 'bin'), path.join(root, 'bin'), { recursive: true });
    // A clone has its TypeScript project; the package's files leave it out (src/state/this-copy.ts).
    fs.copyFileSync(path.join(ROOT, 'tsconfig.json'), path.join(clone, 'tsconfig.json'));
    const fix = { [clone]: `run npm run build in ${clone}`, [installed]: `this installed copy (${installed}) is incomplete: install agent-board again` };
    for (const root of [clone, installed]) {
      for (const args of [['--version'], ['peek', 'x']]) {
        const r = spawnSync(process.execPath, [path.join(root, 'bin', 'agent-board'), ...args], { encoding: 'utf8' });
        expect(r.status).toBe(1);
        expect(r.stderr).toBe(`agent-board: ${path.join(root, 'dist', 'bundle')} is missing or incomplete: ${fix[root]}\n`);
      }
    }
  });

  it("bundles crypto's random ids as crypto makes them: version 4 ids, and random bytes of the size asked", () => {
    const dir = tempDir();
    const entry = path.join(dir, 'entry.mjs');
    fs.writeFileSync(
      entry,
      "import { randomBytes, randomUUID } from 'node:crypto';\n" +
        'const ids = Array.from({ length: 2000 }, () => randomUUID());\n' +
        'const sizes = [0, 1, 8, 33].map((n) => randomBytes(n).length);\n' +
        'const buffer = Buffer.isBuffer(randomBytes(2));\n' +
        "const cryptoLoaded = process.moduleLoadList.includes('NativeModule crypto');\n" +
        'randomBytes(4, (err, b) => console.log(JSON.stringify({ ids, sizes, buffer, cryptoLoaded, callback: err === null && b.length === 4 })));\n',
    );
    const out = path.join(dir, 'out.mjs');
    const build =
      `import { build } from 'esbuild';\n` +
      `import { builtinsByRequire } from ${JSON.stringify(path.join(ROOT, 'scripts', 'bundle-builtins.mjs'))};\n` +
      `await build({ entryPoints: [${JSON.stringify(entry)}], outfile: ${JSON.stringify(out)}, bundle: true, format: 'esm', platform: 'node', plugins: [builtinsByRequire], ` +
      `banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" }, logLevel: 'error' });\n`;
    const b = spawnSync(process.execPath, ['--input-type=module', '-e', build], { cwd: ROOT, encoding: 'utf8' });
    expect(b.stderr).toBe('');
    const r = spawnSync(process.execPath, [out], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const got = JSON.parse(r.stdout) as { ids: string[]; sizes: number[]; buffer: boolean; cryptoLoaded: boolean; callback: boolean };
    for (const id of got.ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(got.ids).size).toBe(got.ids.length);
    expect(got.sizes).toEqual([0, 1, 8, 33]);
    expect(got.buffer).toBe(true);
    // Made without loading node's crypto; the callback form, last, is node's own.
    expect(got.cryptoLoaded).toBe(false);
    expect(got.callback).toBe(true);
  });
});
