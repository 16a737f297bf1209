/**
 * A descriptor whoever ran `agent-board new` left open without close-on-exec (here fd 200, as a
 * shell's `exec 200>file` leaves it) does not reach the session's program, sandboxed or not: the runner closes what
 * it inherited before it spawns anything (src/state/process/inherited-fds.ts).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProgram } from '../../src/state/process/find-program.js';
import { BIN, cli, cliEnv, destroyHome, makeHome, waitFor } from '../helpers/home.js';

/** The compiled module (the child is plain node, without the test's TypeScript loader). */
const INHERITED_FDS_JS = path.resolve('dist/state/process/inherited-fds.js');

let home: string;
beforeAll(() => {
  home = makeHome('ab-fds-');
});
afterAll(() => destroyHome(home));

/**
 * `agent-board new` run with fd 200 open, as a careless parent would leave it; the session's id. A
 * high number: node takes the low ones for itself at its start, and so closes what was there.
 */
async function newWithExtraFd(args: string[]): Promise<string> {
  const line = ['exec 200>/dev/null;', 'exec "$0" "$@"'].join(' ');
  const child = spawn('bash', ['-c', line, process.execPath, BIN, 'new', ...args], { env: cliEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code, out).toBe(0);
  return out.trim().split('\n').pop()!.trim();
}

const cases: [string, string[]][] = [['unsandboxed', []], ...(findProgram('bwrap') ? [['sandboxed', ['--sandbox', '--network', 'none']] as [string, string[]]] : [])];

describe.each(cases)('%s', (_name, flags) => {
  it("the program's open descriptors are its terminal's alone", async () => {
    const id = await newWithExtraFd([...flags, '--cwd', '/var/tmp', '--', 'sh', '-c', 'echo FDS $(ls /proc/$$/fd | sort -n | tr "\\n" " ") END; sleep 30']);
    try {
      const screen = await waitFor('the list of descriptors', () => {
        const s = cli(home, ['peek', id]).stdout;
        return /FDS .* END/.test(s) ? s : null;
      }, 20_000);
      // 0, 1, 2 and the one ls opened to read the directory (3), nothing from the parent of `new`.
      const fds = /FDS (.*) END/.exec(screen)![1]!.trim().split(/\s+/).map(Number);
      expect(fds.slice(0, 3)).toEqual([0, 1, 2]);
      expect(fds.filter((fd) => fd > 3)).toEqual([]);
    } finally {
      cli(home, ['rm', '--force', id]);
    }
  });
});

describe('closeInheritedDescriptors', () => {
  it('closes what a process got at exec without close-on-exec, and nothing of its own', async () => {
    // A node child with fd 200 inherited from a shell (not close-on-exec) and a file it opens itself (close-on-exec).
    const script = [
      "const fs = require('node:fs');",
      "const own = fs.openSync(process.execPath, 'r');",
      `const { closeInheritedDescriptors } = require(${JSON.stringify(INHERITED_FDS_JS)});`,
      'const closed = closeInheritedDescriptors();',
      "console.log(JSON.stringify({ closed, ownOpen: fs.existsSync('/proc/self/fd/' + own) }));",
    ].join('\n');
    const child = spawn('bash', ['-c', 'exec 200</dev/null; exec "$0" -e "$1"', process.execPath, script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise((resolve) => child.on('close', resolve));
    const r = JSON.parse(out) as { closed: number[]; ownOpen: boolean };
    expect(r.closed).toContain(200);
    expect(r.ownOpen).toBe(true);
  });
});
