// Makes V8's code caches for the start-up bundles (scripts/bundle.mjs, at
// build time): compiles each as bin/agent-board does, runs its top level
// (and, for the hot bundle, the warm-up below), and writes what V8 compiled
// to <bundle>.cache. The attach bundle is compiled eagerly (every function,
// not only the top level: an attach then compiles nothing, about 8 ms less
// CPU per attach here). The hot bundle is not: it holds every hot command and
// commander, and a run uses a small part of it; its eager cache (435 KB) took
// longer to read and deserialize than the lazy one (184 KB) plus the little a
// run compiles: --version 13.3 and 16.9 ms beyond node eager, 12.4 and 10.9
// lazy; a real `hook` 35.0 and 31.5 against 28.8 and 29.5 (bench/startup.mjs,
// alternating). V8 takes the cache with or without the flag.
//
//   node scripts/hot-cache.cjs dist/bundle/hot.js dist/bundle/attach.js
//
// The hot bundle (the first) is also run through every hot word of
// src/cli/main.ts up to commander's parse (an unknown option stops each
// before any command runs, its output thrown away), and its hot words go to
// hot.json: a hot word that needs a module the bundle does not hold fails
// here, and with it the build. The attach bundle (src/cli/attach-main.ts)
// is asked to read a line that is not attach's, which runs nothing.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const v8 = require('node:v8');
const { createRequire } = require('node:module');

/** Compiles `file` (every function when `eager`) and runs its top level: the script (for its cache) and its exports. */
function load(file, eager) {
  if (eager) v8.setFlagsFromString('--no-lazy');
  const script = new vm.Script(fs.readFileSync(file, 'utf8'), { filename: file });
  if (eager) v8.setFlagsFromString('--lazy');
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, createRequire(file), mod, file, path.dirname(file));
  return { script, exports: mod.exports };
}

const silent = { writeOut: () => {}, writeErr: () => {}, outputError: () => {} };
const silence = (cmd) => {
  cmd.configureOutput(silent);
  cmd.commands.forEach(silence);
};

async function warmUp({ HOT_WORDS, buildProgram }) {
  for (const word of HOT_WORDS) {
    const argv = ['node', 'agent-board', word, '--no-such-option-to-warm-up'];
    const program = await buildProgram(argv);
    silence(program);
    const ended = await program.parseAsync(argv).then(
      () => null,
      (err) => err,
    );
    // Only commander's own stop is expected: the version, or the unknown option.
    if (!ended || !['commander.version', 'commander.unknownOption'].includes(ended.code)) {
      throw new Error(`the hot bundle's warm-up of "${word}" did not stop at commander's parse: ${ended?.stack ?? 'it ran'}`);
    }
  }
}

async function run() {
  const [hotFile, attachFile] = process.argv.slice(2).map((f) => path.resolve(f));
  const hot = load(hotFile, false);
  await warmUp(hot.exports);
  fs.writeFileSync(`${hotFile}.cache`, hot.script.createCachedData());
  fs.writeFileSync(path.join(path.dirname(hotFile), 'hot.json'), JSON.stringify({ words: hot.exports.HOT_WORDS }) + '\n');
  if (attachFile === undefined) return;
  const attach = load(attachFile, true);
  if (attach.exports.main(['node', 'agent-board', 'ls']) !== false) throw new Error('the attach bundle took a line that is not attach\'s');
  fs.writeFileSync(`${attachFile}.cache`, attach.script.createCachedData());
}

run().catch((err) => {
  process.stderr.write(`hot-cache: ${err.stack ?? err}\n`);
  process.exitCode = 1;
});
