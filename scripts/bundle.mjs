// Bundles the CLI (npm run build, after tsc): src/cli/main.ts and everything it
// imports, npm packages included, into ES modules in dist/bundle/, which
// bin/agent-board runs. It pays at start-up, which the agents pay on every
// turn (hook, send, chat) and a person on every attach: node resolves, reads
// and links each ES module file on its own, and the CLI from dist/ is about
// forty of them before a command runs. bench/startup.mjs measures it.
//
//   node scripts/bundle.mjs            build dist/bundle/
//
// How the output is cut:
// - the light commands (everything src/cli/main.ts imports statically) are
//   one chunk; the parts behind a dynamic import() (the board's Ink and React,
//   the MCP server and zod, the xterm renderer of peek, the runner) are chunks
//   of their own, loaded only by the command that needs them. esbuild puts a
//   module that two entries share in a chunk of its own, so a light module the
//   board also uses would be a file of its own on every command's path: each
//   lazy entry is therefore built as a wrapper that imports the light set
//   first (LIGHT below), which puts the whole light set in one shared chunk.
// - node's built-in modules are taken with require(), not import: an import
//   of node:fs or node:crypto makes node build the module's ES namespace,
//   which reads every export, lazy ones included (fs's streams, webcrypto):
//   about 9 ms at each start here. child_process (about 3.5 ms to load) is
//   loaded on first use: only new, restart, git and ssh spawn anything.
// - node-pty is native and stays a package import (the runner loads it);
//   react-devtools-core is an optional import of Ink's that we never take.
// - dist/bundle/ sits at the same depth as dist/cli/, so the paths the code
//   finds beside itself (../runner/entry.js, ../../src/core/agents/rules,
//   ../../bin) are the same from the bundle and from tsc's output.
import { build } from 'esbuild';
import fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist', 'bundle');
const ENTRY = path.join(ROOT, 'src', 'cli', 'main.ts');
/** What every chunk starts with: the require the built-in modules are taken with. */
const BANNER = "import { createRequire as __abCreateRequire } from 'node:module';\nconst require = __abCreateRequire(import.meta.url);";
/** Built-in modules loaded on first use rather than at start-up (see above). */
const LAZY_BUILTINS = new Set(['child_process']);

const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith('_')));
const require = createRequire(import.meta.url);

/**
 * A built-in module as a module of the bundle: `require()` of it (the
 * namespace built from the plain object, no lazy export read), or for a lazy
 * one, functions that load it on their first call and a default export that
 * does the same on its first property read. A name the module does not
 * export as a function is a build error (esbuild: "No matching export"), not
 * a wrong value at run time.
 */
function builtinSource(name) {
  if (!LAZY_BUILTINS.has(name)) return { contents: `module.exports = require('node:${name}');`, loader: 'js' };
  const real = require(`node:${name}`);
  const fns = Object.keys(real).filter((k) => typeof real[k] === 'function' && /^[a-z]\w*$/.test(k));
  const lines = [
    `let loaded = null;`,
    `const load = () => (loaded ??= require('node:${name}'));`,
    ...fns.map((k) => `export function ${k}(...args) { return load().${k}(...args); }`),
    `export default new Proxy({}, { get: (_, key) => load()[key] });`,
  ];
  return { contents: lines.join('\n'), loader: 'js' };
}

const builtinsByRequire = {
  name: 'builtins-by-require',
  setup(b) {
    b.onResolve({ filter: /^(node:)?[a-z_]+(\/[a-z_]+)?$/ }, (a) => {
      const name = a.path.replace(/^node:/, '');
      if (!BUILTINS.has(name) || name === 'module') return undefined;
      // The module's own require() of it is node's: left as it is, for run time.
      if (a.namespace === 'builtin') return { path: a.path, external: true };
      return { path: name, namespace: 'builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (a) => builtinSource(a.path));
  },
};

/**
 * The commands an agent or a person waits on at every turn: everything these
 * import statically is the light set, loaded by the entry in one chunk.
 */
const HOT_COMMANDS = ['attach', 'send', 'hook', 'chat', 'ls', 'board'];
const LIGHT = 'ab:light-set';
const CLI = 'ab:cli';

const lightFirst = {
  name: 'light-set-first',
  setup(b) {
    b.onResolve({ filter: /^ab:/ }, (a) => ({ path: a.path, namespace: 'ab' }));
    b.onResolve({ filter: /.*/ }, (a) => {
      if (a.kind !== 'dynamic-import' || a.pluginData?.real) return undefined;
      return { path: a.path, namespace: 'lazy-entry', pluginData: { dir: a.resolveDir } };
    });
    b.onLoad({ filter: /.*/, namespace: 'ab' }, (a) => {
      const commands = path.join(ROOT, 'src', 'cli', 'commands');
      if (a.path === LIGHT) return { contents: HOT_COMMANDS.map((c) => `import ${JSON.stringify(path.join(commands, `${c}.ts`))};`).join('\n'), loader: 'js', resolveDir: ROOT };
      return { contents: `import ${JSON.stringify(LIGHT)};\nexport * from ${JSON.stringify(ENTRY)};`, loader: 'js', resolveDir: ROOT };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-entry' }, async (a) => {
      const real = await b.resolve(a.path, { kind: 'import-statement', resolveDir: a.pluginData.dir, pluginData: { real: true } });
      if (real.errors.length > 0) return { errors: real.errors };
      if (real.external) return { contents: `export * from ${JSON.stringify(a.path)};`, loader: 'js' };
      return { contents: `import ${JSON.stringify(CLI)};\nexport * from ${JSON.stringify(real.path)};`, loader: 'js', resolveDir: a.pluginData.dir };
    });
  },
};

fs.rmSync(OUT, { recursive: true, force: true });
const result = await build({
  entryPoints: { main: CLI },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['node-pty', 'react-devtools-core'],
  banner: { js: BANNER },
  plugins: [builtinsByRequire, lightFirst],
  chunkNames: '[name]-[hash]',
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});
fs.writeFileSync(path.join(OUT, 'meta.json'), JSON.stringify(result.metafile));
