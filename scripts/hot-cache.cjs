// Makes V8's code cache for the hot bundle (scripts/bundle.mjs, at build
// time): compiles dist/bundle/hot.js as bin/agent-board does, but eagerly
// (every function, not only the top level: a start then compiles nothing,
// about 8 ms less CPU per attach here; V8 takes the cache with or without
// the flag), runs every hot word of src/cli/main.ts up to commander's parse
// (an unknown option stops each before any command runs, its output thrown
// away), and writes what V8 compiled to hot.js.cache and the hot words to
// hot.json. A hot word that needs a module the bundle does not hold fails
// here, and with it the build.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const v8 = require('node:v8');
const { createRequire } = require('node:module');

const file = path.resolve(process.argv[2]);
v8.setFlagsFromString('--no-lazy');
const script = new vm.Script(fs.readFileSync(file, 'utf8'), { filename: file });
v8.setFlagsFromString('--lazy');
const hot = { exports: {} };
script.runInThisContext()(hot.exports, createRequire(file), hot, file, path.dirname(file));
const { HOT_WORDS, buildProgram } = hot.exports;

const silent = { writeOut: () => {}, writeErr: () => {}, outputError: () => {} };
const silence = (cmd) => {
  cmd.configureOutput(silent);
  cmd.commands.forEach(silence);
};

async function warmUp() {
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

warmUp().then(
  () => {
    fs.writeFileSync(`${file}.cache`, script.createCachedData());
    fs.writeFileSync(path.join(path.dirname(file), 'hot.json'), JSON.stringify({ words: HOT_WORDS }) + '\n');
  },
  (err) => {
    process.stderr.write(`hot-cache: ${err.stack ?? err}\n`);
    process.exitCode = 1;
  },
);
