// The bundles' built-in modules (scripts/bundle.mjs): how each node: import
// of the sources becomes a module of the bundle.
//
// - Taken with require(), not import: an import of node:fs or node:crypto
//   makes node build the module's ES namespace, which reads every export,
//   lazy ones included (fs's streams, webcrypto): about 9 ms at each start
//   here. As an ES module of the bundle (not a CommonJS one), so that every
//   module importing it shares one set of bindings: esbuild's interop for a
//   CommonJS module copies every export once per importer (40 import fs).
// - The lazy ones load on first use: child_process (3.5 ms) only spawns,
//   crypto (4 to 13 ms) only makes ids and hashes, net only connects,
//   readline only asks.
// - A CommonJS package's require() of a built-in is node's own (it reads the
//   module object, getters included), but for a lazy one: an object that
//   loads it on its first property read (commander's child_process).
import { builtinModules, createRequire } from 'node:module';

/** Built-in modules loaded on first use rather than at start-up (see above). */
const LAZY_BUILTINS = new Set(['child_process', 'crypto', 'net', 'readline']);
/**
 * Lazy too in the start-up bundles (hot.js, attach.js: startUpBuiltinsByRequire): node:os, which
 * they need for a home directory that is not set (AGENT_BOARD_HOME, XDG_*) and nothing else. Not
 * in the others: a package may read what it requires of it at load.
 */
const START_UP_LAZY = new Set([...LAZY_BUILTINS, 'os']);

const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith('_')));
const require = createRequire(import.meta.url);

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * A built-in module as an ES module of the bundle, so that every module that
 * imports it shares one set of bindings (esbuild's interop for a CommonJS
 * module would copy every export once per importing module: 40 importers
 * of fs here). Eager: `require()` of it, its plain exports read once (its
 * lazy getters, fs.promises or crypto.webcrypto, stay behind the default
 * export). Lazy: functions that load it on their first call, and a default
 * export that does the same on its first property read. A name the shim
 * does not export (a getter, or a class of a lazy module) is a build error
 * (esbuild: "No matching export"), never a wrong value at run time.
 */
export function builtinSource(name, lazy = LAZY_BUILTINS) {
  const real = require(`node:${name}`);
  const keys = Object.keys(real).filter((k) => IDENTIFIER.test(k) && k !== 'default' && !Object.getOwnPropertyDescriptor(real, k).get);
  if (!lazy.has(name)) {
    const lines = [`const m = require('node:${name}');`, `export default m;`, ...keys.map((k) => `export const ${k} = m.${k};`)];
    return { contents: lines.join('\n'), loader: 'js' };
  }
  const own = OWN_FUNCTIONS[name] ?? { helpers: '', exports: {} };
  const fns = keys.filter((k) => typeof real[k] === 'function' && /^[a-z]/.test(k) && !(k in own.exports));
  const lines = [
    `let loaded = null;`,
    `const load = () => (loaded ??= require('node:${name}'));`,
    own.helpers,
    ...fns.map((k) => `export function ${k}(...args) { return load().${k}(...args); }`),
    ...Object.values(own.exports),
    `const own = { ${Object.keys(own.exports).join(', ')} };`,
    `export default new Proxy({}, { get: (_, key) => (Object.hasOwn(own, key) ? own[key] : load()[key]) });`,
  ];
  return { contents: lines.join('\n'), loader: 'js' };
}

/**
 * What a lazy built-in's shim does itself rather than load the module. The
 * CLI needs crypto for random ids alone (a command's id, a lock's token),
 * and node:crypto takes 4 to 13 ms to load here: these read the kernel's
 * random source, which node's own generator is seeded from, as the same
 * calls would return (a Buffer; an RFC 4122 version 4 id). Any other form
 * (a callback, options), or no /dev/urandom, is node's crypto.
 */
const OWN_FUNCTIONS = {
  crypto: {
    helpers: `function urandom(size) {
  const fs = require('node:fs');
  const out = Buffer.alloc(size);
  const fd = fs.openSync('/dev/urandom', 'r');
  try {
    for (let at = 0; at < size; ) at += fs.readSync(fd, out, at, size - at, null);
  } finally {
    fs.closeSync(fd);
  }
  return out;
}`,
    exports: {
      randomBytes: `export function randomBytes(size, callback) {
  if (callback !== undefined || !Number.isSafeInteger(size) || size < 0) return load().randomBytes(size, callback);
  try {
    return urandom(size);
  } catch {
    return load().randomBytes(size); // no /dev/urandom to read: node's generator
  }
}`,
      randomUUID: `export function randomUUID(options) {
  if (options !== undefined) return load().randomUUID(options);
  let b;
  try {
    b = urandom(16);
  } catch {
    return load().randomUUID(); // no /dev/urandom to read: node's generator
  }
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
}`,
    },
  },
};

/** A CommonJS require() of a lazy built-in (commander's of child_process): an object that loads it on first read. */
function lazyRequireSource(name) {
  return { contents: `let loaded = null;\nmodule.exports = new Proxy({}, { get: (_, key) => (loaded ??= require('node:${name}'))[key] });`, loader: 'js' };
}

const byRequire = (lazy) => ({
  name: 'builtins-by-require',
  setup(b) {
    b.onResolve({ filter: /^(node:)?[a-z_]+(\/[a-z_]+)?$/ }, (a) => {
      const name = a.path.replace(/^node:/, '');
      if (!BUILTINS.has(name) || name === 'module') return undefined;
      // The shims' own require() is node's, and so is a CommonJS package's (it
      // reads the module object itself, getters included), but for a lazy one.
      if (a.namespace === 'builtin' || a.namespace === 'lazy-require') return { path: a.path, external: true };
      if (a.kind === 'require-call') return lazy.has(name) ? { path: name, namespace: 'lazy-require' } : { path: `node:${name}`, external: true };
      return { path: name, namespace: 'builtin' };
    });
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (a) => builtinSource(a.path, lazy));
    b.onLoad({ filter: /.*/, namespace: 'lazy-require' }, (a) => lazyRequireSource(a.path));
  },
});

export const builtinsByRequire = byRequire(LAZY_BUILTINS);
/** The same, for the start-up bundles (START_UP_LAZY). */
export const startUpBuiltinsByRequire = byRequire(START_UP_LAZY);
