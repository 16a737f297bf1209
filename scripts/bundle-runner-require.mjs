// The runner bundle's require (scripts/bundle.mjs). The sources take CommonJS packages with
// createRequire(import.meta.url) (src/state/headless-terminal.ts, src/runner/pty/pty-host.ts): from
// ESM, the one way that keeps node's CommonJS export lexer out of memory. runner.cjs is CommonJS
// itself, so there node:module is this shim, measured on an idle runner (bench/rss.mjs):
// - its createRequire is the bundle's own require: node's module package, and the ES module
//   loader it brings, are not loaded (about 0.2 MiB);
// - @xterm/headless is read from XTERM_ASCII beside the bundle, not from node_modules: the
//   package's file holds 27 characters past Latin-1, so V8 keeps its 182 KB of source as two
//   bytes a character; esbuild writes the copy in ASCII, still minified (about 0.18 MiB). It is
//   not bundled into runner.cjs, which esbuild would print unminified (280 KB), and the runner's
//   own code stays readable in its stack traces. Everything else (node-pty, built-ins) is node's
//   require, as before.
export const XTERM_ASCII = 'xterm-headless.cjs';
const SHIM = `export function createRequire() {
  return (id) => (id === '@xterm/headless' ? require('./${XTERM_ASCII}') : require(id));
}`;

export const runnerRequire = {
  name: 'runner-require',
  setup(b) {
    b.onResolve({ filter: /^(node:)?module$/ }, () => ({ path: 'module', namespace: 'runner-require' }));
    b.onResolve({ filter: new RegExp(`^\\./${XTERM_ASCII.replace('.', '\\.')}$`) }, (a) => ({ path: a.path, external: true }));
    b.onLoad({ filter: /.*/, namespace: 'runner-require' }, () => ({ contents: SHIM, loader: 'js', resolveDir: process.cwd() }));
  },
};
