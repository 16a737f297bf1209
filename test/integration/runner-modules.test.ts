// What an idle runner has loaded (scripts/bundle-runner-require.mjs): every module it holds is
// memory an idle session keeps (bench/rss.mjs). Node's module package (and the ES module loader it
// brings) is not loaded, nor node:os until an exit needs a signal's name, and the headless terminal
// is the bundle's ASCII copy, not the package's file, which V8 would keep as two bytes a character.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, destroyHome, makeHome, waitFor } from '../helpers/home.js';

const FIXTURE = path.resolve('test/fixtures/programs/loaded-modules.cjs');

let home: string;
beforeEach(() => {
  home = makeHome();
});
afterEach(() => destroyHome(home));

describe('what an idle runner has loaded', () => {
  it('holds neither node:module nor node:os, and its headless terminal in ASCII', async () => {
    const out = path.join(home, 'loaded.txt');
    const r = cli(home, ['new', '--name', 'idle', '--', 'sh', '-c', 'echo ready; exec sleep 60'], { env: { NODE_OPTIONS: `--require ${FIXTURE}`, LOADED_MODULES_OUT: out } });
    expect(r.code, r.stderr).toBe(0);
    await waitFor('the program', () => cli(home, ['peek', 'idle']).stdout.includes('ready'));
    const runnerPid = JSON.parse(cli(home, ['ls', '--json']).stdout)[0].runnerPid as number;
    process.kill(runnerPid, 'SIGUSR2');
    const loaded = (await waitFor('the list', () => fs.existsSync(out) && fs.readFileSync(out, 'utf8'))).split('\n');

    expect(loaded).toContain('NativeModule net'); // the list is the runner's
    expect(loaded).not.toContain('NativeModule module');
    expect(loaded).not.toContain('NativeModule os');
    const files = loaded.filter((l) => l.startsWith('File ')).map((l) => l.slice(5));
    const xterm = files.filter((f) => f.includes('xterm'));
    expect(xterm.map((f) => path.basename(f))).toEqual(['xterm-headless.cjs']);
    expect(/^[\x00-\x7f]*$/.test(fs.readFileSync(xterm[0]!, 'latin1'))).toBe(true);
  });
});
