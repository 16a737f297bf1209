#!/usr/bin/env node
// agent-board's postinstall (package.json): npm runs it in a clone (npm ci) and in an installed
// copy (npm install -g of the tarball) alike, after every dependency's install script, so after
// node-pty's own build. It prints nothing when all is well, and one line when not:
//
// - node-pty must load: without its native part no session can start. On Linux node-pty builds
//   it from source in its own install script; when npm did not run that script (its policy for
//   dependencies' install scripts held it back, or --ignore-scripts), the install fails here
//   with the line that gets it, rather than leaving a tool that cannot start a session. We do
//   not build node-pty ourselves then: running its build under our approval would undo the
//   choice npm's policy just made for it (npm help install-scripts).
// - our native addons (src/runner/native: the echo relay, the board's helper threads) are built
//   with node-gyp (npm puts its own on PATH for scripts). Each is optional, so a failed build is
//   one line and the install goes on; node-gyp's output, about 40 lines when it works, goes to a
//   log file, which that line names. `agent-board doctor` says the same later ("native").
//
// CommonJS and no dependencies: it runs before anything of ours is known to work.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const NATIVE = path.join(ROOT, 'src', 'runner', 'native');
const LOG = path.join(NATIVE, 'build', 'install.log');
/** A clone has its TypeScript project; an installed copy ships none (src/state/this-copy.ts). */
const clone = fs.existsSync(path.join(ROOT, 'tsconfig.json'));

const say = (line) => process.stderr.write(`agent-board: ${line}\n`);

/** Why node-pty cannot load, in a few words, or null when it does. */
function ptyProblem() {
  try {
    require('node-pty');
    return null;
  } catch (err) {
    const msg = String(err && err.message);
    if (msg.startsWith('Failed to load native module')) return `its native part (pty.node) is not built for ${process.platform}-${process.arch}`;
    return msg.split('\n')[0];
  }
}

/**
 * The line of node-gyp's output that says what went wrong: the compiler's error, else gyp's own
 * (a Python exception: a compiler that is not there), else node-gyp's (no Python, no make).
 */
function gypReason(out) {
  const lines = out.split('\n').map((l) => l.trim());
  const compiler = lines.find((l) => /\berror:/.test(l) && !l.startsWith('gyp'));
  const python = lines.find((l) => /^\w+(Error|Exception): /.test(l));
  const stack = lines.find((l) => l.startsWith('gyp ERR! stack Error:'));
  return compiler ?? python ?? (stack ? stack.slice('gyp ERR! stack '.length) : null);
}

/** Builds the native addons; null when built, else why not. */
function buildAddons() {
  // npm names its own node-gyp to scripts (and puts a shim of it on PATH); run outside npm, PATH's.
  const gyp = process.env.npm_config_node_gyp;
  const [cmd, ...pre] = gyp ? [process.execPath, gyp] : ['node-gyp'];
  const r = spawnSync(cmd, [...pre, 'rebuild', `--directory=${NATIVE}`], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) return r.error.code === 'ENOENT' ? 'node-gyp is not on PATH' : r.error.message;
  const out = `${r.stdout}${r.stderr}`;
  try {
    fs.mkdirSync(path.dirname(LOG), { recursive: true });
    fs.writeFileSync(LOG, out);
  } catch {
    // No log is no reason to fail an install; the line below still says why.
  }
  if (r.status === 0) return null;
  return `${gypReason(out) ?? `node-gyp exited with ${r.status ?? r.signal}`}; node-gyp's output: ${LOG}`;
}

const pty = ptyProblem();
if (pty !== null) {
  // What npm installed this from: for a tarball, `file:` and its full path, which is how
  // --allow-scripts names a tarball (a package name matches only a registry's package).
  const resolved = process.env.npm_package_resolved ?? '';
  const from = resolved.startsWith('file:/') ? resolved.slice('file:'.length) : "<the tarball's full path>";
  let fix;
  if (clone) fix = `run npm rebuild node-pty in ${ROOT} (it builds from source: python3, make, g++)`;
  else if (process.env.npm_config_global === 'true') fix = `install again with its install script allowed: npm install -g --allow-scripts=node-pty,${from} ${from}`;
  // A dependency of a project, whose package.json's allowScripts holds node-pty back.
  else fix = 'allow its install script ("node-pty": true in your package.json\'s allowScripts), then install again';
  say(`node-pty cannot load (${pty}), so no session could start: ${fix}`);
  process.exit(1);
}

// The addons are Linux only (their loaders say so elsewhere): nothing to build or fall back from.
if (process.platform === 'linux') {
  const why = buildAddons();
  if (why !== null) {
    say(`the native addons (src/runner/native) were not built (${why}): keys and echo go through the event loop, and the board's helper threads keep their priority`);
  }
}
