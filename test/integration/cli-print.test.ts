/**
 * What the built CLI prints when its output is not a terminal (src/cli/print.ts): the hot commands
 * and their help load none of node's streams for it, a reader that went away (EPIPE) costs no
 * error, and a full non-blocking pipe (EAGAIN) loses nothing.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, ROOT, cliEnv, destroyHome, makeHome } from '../helpers/home.js';

const LOADED = path.join(ROOT, 'test', 'fixtures', 'programs', 'print-modules.cjs');
/** python3 (node-pty's build needs it): argv[1] a FIFO, opened write-only and non-blocking as fd 1; then exec argv[2:]. */
const BECOME_NODE_ON_NONBLOCKING_FIFO =
  'import os, sys\nfd = os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK)\nos.dup2(fd, 1)\nos.close(fd)\nos.execv(sys.argv[2], sys.argv[2:])';
const homes: string[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) destroyHome(h);
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
const home = () => {
  const h = makeHome();
  homes.push(h);
  return h;
};

/** The CLI with `args`, its stdout a pipe; what it printed and the built-in modules it loaded. */
function run(args: string[], h: string) {
  const out = path.join(h, 'modules.txt');
  const r = spawnSync(process.execPath, ['--require', LOADED, BIN, ...args], { env: { ...cliEnv(h), MODULES_OUT: out }, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, modules: fs.readFileSync(out, 'utf8').split('\n') };
}

describe('the CLI prints to a pipe or a file without node streams', () => {
  it('--version, the hot commands\' help and a chat post print whole and load neither net nor stream', () => {
    const h = home();
    const cases: Array<[string[], RegExp]> = [
      [['--version'], /^0\.1\.0\n$/],
      [['send', '--help'], /^Usage: agent-board send \[options\] <session>/],
      [['hook', '--help'], /^Usage: agent-board hook /],
      [['chat', 'post', '--help'], /^Usage: agent-board chat post /],
      [['attach', '--help'], /^Usage: agent-board attach /],
      [['chat', 'post', '--room', 'r1', 'hello from a pipe'], /^posted #1 to r1\n$/],
    ];
    for (const [args, want] of cases) {
      const r = run(args, h);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).toMatch(want);
      expect(r.stderr, args.join(' ')).toBe('');
      expect(r.modules.filter((m) => m === 'NativeModule net' || m === 'NativeModule stream'), args.join(' ')).toEqual([]);
    }
  });

  it('help wraps at 80 columns off a terminal, as commander does by default', () => {
    const r = run(['send', '--help'], home());
    expect(Math.max(...r.stdout.split('\n').map((l) => l.length))).toBeLessThanOrEqual(80);
    expect(r.stdout).toContain('--no-enter');
  });

  it('a reader that went away before the output: the command still succeeds, and says nothing of it', async () => {
    const h = home();
    const child = spawn(process.execPath, [BIN, '--help'], { env: cliEnv(h), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // closed long before node has started and printed
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('chat tail ends quietly, exit 0, once its reader has gone', async () => {
    const h = home();
    expect(run(['chat', 'post', '--room', 'r1', 'a message for the tail'], h).code).toBe(0);
    const child = spawn(process.execPath, [BIN, 'chat', 'tail', '--room', 'r1'], { env: cliEnv(h), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // its first write, the room's last message, meets EPIPE
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('a full non-blocking pipe: the output waits for the reader and arrives whole', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-print-'));
    dirs.push(dir);
    const fifo = path.join(dir, 'out.fifo');
    spawnSync('python3', ['-c', 'import os, sys\nos.mkfifo(sys.argv[1], 0o600)', fifo]);
    // Ours, to fill and to drain: read and write, non-blocking.
    const fd = fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
    try {
      let filled = 0;
      const block = Buffer.alloc(4096, 'x');
      for (;;) {
        try {
          filled += fs.writeSync(fd, block);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
          break;
        }
      }
      // The child's stdout: the same FIFO, opened non-blocking by python, which then becomes node (no libuv spawn
      // in between to make it blocking again). Its first write meets the full pipe: EAGAIN.
      const child = spawn('python3', ['-c', BECOME_NODE_ON_NONBLOCKING_FIFO, fifo, process.execPath, BIN, '--help'], { env: cliEnv(home()), stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((r) => child.on('close', r));
      // Let it start and meet the full pipe, then drain it: what we filled it with, then the help.
      await new Promise((r) => setTimeout(r, 1500));
      let got = '';
      const buf = Buffer.alloc(65536);
      const drain = () => {
        for (;;) {
          try {
            const n = fs.readSync(fd, buf, 0, buf.length, null);
            if (n === 0) return;
            got += buf.toString('latin1', 0, n);
          } catch (err) {
            if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return;
            throw err;
          }
        }
      };
      const draining = setInterval(drain, 10);
      const code = await exited;
      clearInterval(draining);
      drain();
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(got.length).toBeGreaterThan(filled);
      const help = got.slice(filled);
      expect(help).toMatch(/^Usage: agent-board \[options\] \[command\]/);
      expect(help).toContain('Sessions:');
      expect(help.trimEnd().split('\n').at(-1)).toBe('Exit codes: docs/cli.md, "Exit codes".'); // the help's last line: it came whole
    } finally {
      fs.closeSync(fd);
    }
  });
});
