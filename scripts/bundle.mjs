// Bundles the CLI (npm run build, after tsc) into dist/bundle/, which
// bin/agent-board runs. It pays at start-up, which the agents pay on every
// turn (hook, send, chat) and a person on every attach: node resolves, reads,
// compiles and links every ES module file on its own (the CLI from tsc's
// dist/ is about forty before a command runs), and compiles every line it
// loads afresh each time. bench/startup.mjs and bench/first-frame.mjs measure it.
//
//   node scripts/bundle.mjs            build dist/bundle/
//
// Two bundles of the same sources (src/cli/main.ts and all it imports, npm
// packages included; node-pty, native, stays a package import):
//
// - main.js and its chunks: ES modules, the whole CLI. What main.ts imports
//   statically and the hot commands are one chunk; the parts behind a
//   dynamic import() (the board's Ink and React, the MCP server and zod, the
//   xterm renderer of peek, the runner, the other commands) are chunks of
//   their own, loaded only by the command that needs them. esbuild puts a
//   module that two entries share in a chunk of its own, so a light module
//   the board also uses would be one more file on every command's path:
//   each lazy entry is built as a wrapper that imports the CLI entry first,
//   which puts the entry's whole set in one shared chunk.
// - hot.js: the hot commands of main.ts (attach, send, hook, chat, ls, and
//   the board's registration, never its screen) as one CommonJS script,
//   which bin/agent-board compiles with V8's code cache (hot.js.cache, made
//   here by scripts/hot-cache.cjs): no ES module loader (bin/ is CommonJS,
//   bin/package.json), no compile. Any other dynamic import in it is a stub
//   that throws, as none of these commands may take one (main.ts says so).
//   Every other first word goes to main.js.
// - attach.js: `attach` alone (src/cli/attach-main.ts), the same way, for
//   the plain forms of its line: no commander, a third of hot.js's size.
//   Help and anything it does not read itself go on to hot.js.
// - runner.cjs: the runner (src/runner/entry.ts), one CommonJS script, which
//   `new` spawns: its ~50 files and xterm's load in a fraction of the time
//   (bench/startup.mjs times `new`), and it holds less memory idle (no ES
//   module loader stays resident).
// - web-server.cjs: the web server (src/web/server/entry.ts, `agent-board web`), one CommonJS
//   script like the runner's; the page it serves is dist/bundle/web/ (scripts/bundle-web.mjs).
// - demo-agent.js: the demo's scripted agent (src/demo/demo-agent.ts), the
//   program its sessions run, one ES module.
//
// dist/bundle/ is all an installed copy runs (package.json's files), with
// bin/, src/core/agents/rules/ and the native addons' sources.
//
// Built-in modules: see scripts/bundle-builtins.mjs. dist/bundle/ sits at the
// same depth as dist/cli/, so the paths the code finds beside itself
// (../../src/core/agents/rules, ../../bin) are the same
// from the bundles and from tsc's output.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinsByRequire, startUpBuiltinsByRequire } from './bundle-builtins.mjs';
import { XTERM_ASCII, runnerRequire } from './bundle-runner-require.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist', 'bundle');
const ENTRY = path.join(ROOT, 'src', 'cli', 'main.ts');
const COMMANDS_DIR = path.join(ROOT, 'src', 'cli', 'commands');
/** The command modules of main.ts's hot commands, and the board's (every named command registers it). */
const HOT_MODULES = ['attach', 'send', 'hook', 'chat', 'ls', 'board'];
const CLI = 'ab:cli';
/** An ES bundle's first lines: the require its built-ins are taken with (scripts/bundle-builtins.mjs). */
const ESM_BANNER = "import { createRequire as __abCreateRequire } from 'node:module';\nconst require = __abCreateRequire(import.meta.url);";

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // @anthropic-ai/sandbox-runtime (the sandbox's network proxy, src/runner/sandbox/network-proxy.ts) stays a
  // package import, loaded only by a runner that starts one: it finds its vendored files beside itself.
  external: ['node-pty', 'react-devtools-core', '@anthropic-ai/sandbox-runtime'],
  legalComments: 'none',
  logLevel: 'warning',
};

/** The ES bundle's lazy entries: each imports the CLI entry first (see above). */
const entryFirst = {
  name: 'entry-first',
  setup(b) {
    b.onResolve({ filter: /^ab:cli$/ }, () => ({ path: ENTRY }));
    b.onResolve({ filter: /.*/ }, (a) => {
      if (a.kind !== 'dynamic-import' || a.pluginData?.real) return undefined;
      return { path: a.path, namespace: 'lazy-entry', pluginData: { dir: a.resolveDir } };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-entry' }, async (a) => {
      const real = await b.resolve(a.path, { kind: 'import-statement', resolveDir: a.pluginData.dir, pluginData: { real: true } });
      if (real.errors.length > 0) return { errors: real.errors };
      if (real.external) return { contents: `export * from ${JSON.stringify(a.path)};`, loader: 'js' };
      return { contents: `import ${JSON.stringify(CLI)};\nexport * from ${JSON.stringify(real.path)};`, loader: 'js', resolveDir: a.pluginData.dir };
    });
  },
};

/**
 * Light modules a hot command imports only on a path it seldom takes, bundled like the rest but
 * run only when imported: src/client/remote/ssh-stream.ts (node's streams, which cost about 1.5 ms to
 * load) is needed only with --host.
 */
const BUNDLED_LAZY = [path.join(ROOT, 'src', 'client', 'remote', 'ssh-stream.ts')];
const bundledLazy = (a) => BUNDLED_LAZY.includes(path.resolve(path.dirname(a.importer), a.path).replace(/\.js$/, '.ts'));

/** The hot bundle: main.ts's dynamic imports of the hot commands are bundled, any other dynamic import is a stub that throws. */
const hotOnly = {
  name: 'hot-only',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (a) => {
      if (a.kind !== 'dynamic-import' || bundledLazy(a)) return undefined;
      const hot = a.importer === ENTRY && HOT_MODULES.some((m) => a.path === `./commands/${m}.js`);
      return hot ? undefined : { path: `${path.relative(ROOT, a.importer)}: import(${a.path})`, namespace: 'not-hot' };
    });
    b.onLoad({ filter: /.*/, namespace: 'not-hot' }, (a) => ({
      contents: `throw new Error(${JSON.stringify(`internal: ${a.path} is not in the hot bundle (scripts/bundle.mjs, src/cli/main.ts)`)});`,
      loader: 'js',
    }));
  },
};

/** The attach bundle: no dynamic import but BUNDLED_LAZY's (any other is a stub that throws, as in the hot one). */
const noLazy = {
  name: 'no-lazy',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (a) => (a.kind === 'dynamic-import' && !bundledLazy(a) ? { path: `${path.relative(ROOT, a.importer)}: import(${a.path})`, namespace: 'not-attach' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'not-attach' }, (a) => ({
      contents: `throw new Error(${JSON.stringify(`internal: ${a.path} is not in the attach bundle (scripts/bundle.mjs, src/cli/attach-main.ts)`)});`,
      loader: 'js',
    }));
  },
};

fs.rmSync(OUT, { recursive: true, force: true });

const esm = await build({
  ...common,
  entryPoints: { main: CLI },
  outdir: OUT,
  splitting: true,
  format: 'esm',
  banner: { js: ESM_BANNER },
  plugins: [builtinsByRequire, entryFirst],
  chunkNames: '[name]-[hash]',
  metafile: true,
});
// Beside the bundles, not among them: it is for reading what went in, and the package ships dist/bundle/ whole.
fs.writeFileSync(path.join(ROOT, 'dist', 'bundle-meta.json'), JSON.stringify(esm.metafile));

// CommonJS, not an ES module: node's ES module loader (and the fs/promises and readline it
// loads) stays resident in every idle runner, about 1 MiB of RSS (bench/rss.mjs).
await build({
  ...common,
  entryPoints: [path.join(ROOT, 'src', 'runner', 'entry.ts')],
  outfile: path.join(OUT, 'runner.cjs'),
  format: 'cjs',
  define: { 'import.meta.url': '__abImportMetaUrl' },
  banner: { js: "const __abImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  // node:os loads on first use here too (the runner needs it only for an exit's signal name and
  // a lock's host): the runner bundles no package that reads it at load (@xterm/headless does not).
  plugins: [runnerRequire, startUpBuiltinsByRequire],
});
// The web server (src/web/server/entry.ts), started detached by `agent-board web`: CommonJS for the
// runner's reason (no ES module loader resident in a process that idles for days).
await build({
  ...common,
  entryPoints: [path.join(ROOT, 'src', 'web', 'server', 'entry.ts')],
  outfile: path.join(OUT, 'web-server.cjs'),
  format: 'cjs',
  define: { 'import.meta.url': '__abImportMetaUrl' },
  banner: { js: "const __abImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
});
// The runner's @xterm/headless, in ASCII (scripts/bundle-runner-require.mjs).
await build({
  entryPoints: [path.join(ROOT, 'node_modules', '@xterm', 'headless', 'lib-headless', 'xterm-headless.js')],
  outfile: path.join(OUT, XTERM_ASCII),
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  charset: 'ascii',
  legalComments: 'none',
  logLevel: 'warning',
});

/**
 * A bundle as one function expression, compiled as it is by bin/agent-board and hot-cache.cjs (the
 * same source string, or V8 refuses the cache), called with CommonJS's arguments.
 */
const functionBundle = (entry, outfile, what, plugin) =>
  build({
    ...common,
    entryPoints: [entry],
    outfile,
    format: 'cjs',
    define: { 'import.meta.url': '__abImportMetaUrl' },
    banner: {
      js:
        `// ${what} (scripts/bundle.mjs): a function expression bin/agent-board compiles with V8's code cache.\n` +
        '(function (exports, require, module, __filename, __dirname) {\n' +
        "const __abImportMetaUrl = require('node:url').pathToFileURL(__filename).href;",
    },
    footer: { js: '})' },
    plugins: [startUpBuiltinsByRequire, plugin],
  });
const HOT = path.join(OUT, 'hot.js');
await functionBundle(ENTRY, HOT, 'The hot commands', hotOnly);
for (const m of HOT_MODULES) if (!fs.existsSync(path.join(COMMANDS_DIR, `${m}.ts`))) throw new Error(`HOT_MODULES names ${m}, which is not in ${COMMANDS_DIR}`);
// attach.js: `attach` alone, in its plain forms (src/cli/attach-main.ts), without commander: about
// a third of the hot bundle, so a third of its read and its cache to load before the first frame.
const ATTACH = path.join(OUT, 'attach.js');
await functionBundle(path.join(ROOT, 'src', 'cli', 'attach-main.ts'), ATTACH, '`attach` alone', noLazy);

// The demo agent (src/demo/demo-agent.ts), the program of the demo's sessions, as one ES module
// beside the bundles, where src/demo/demo-setup.ts looks first: an installed copy has no dist/demo/.
await build({
  ...common,
  entryPoints: [path.join(ROOT, 'src', 'demo', 'demo-agent.ts')],
  outfile: path.join(OUT, 'demo-agent.js'),
  format: 'esm',
});

// The code caches, made by running each bundle once; it checks too that every hot word of main.ts runs in hot.js.
execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'hot-cache.cjs'), HOT, ATTACH], { stdio: 'inherit' });

// The web page (src/web/page): dist/bundle/web/, which the web server serves (scripts/bundle-web.mjs).
execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'bundle-web.mjs')], { stdio: 'inherit' });
