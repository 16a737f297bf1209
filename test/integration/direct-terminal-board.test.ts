/**
 * The board's attach (Enter) takes direct output too when the board runs in a terminal: the
 * runner writes to the board's terminal, and the board draws again after the hand-back.
 */
import fs from 'node:fs';
import pty from 'node-pty';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runnerLog } from '../../src/state/paths.js';
import { BIN, cliEnv, destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';

let home: string;
let board: pty.IPty | null = null;
beforeEach(() => {
  home = makeHome();
});
afterEach(() => {
  board?.kill('SIGKILL');
  board = null;
  destroyHome(home);
});

it('attaching from the board writes the session straight to the board terminal, and the board comes back on detach', async () => {
  const id = newSession(home, ['--name', 'solo', '--', 'sh', '-c', 'stty -echo; echo solo-ready; while IFS= read -r l; do echo "got:$l"; done']);
  const p = (board = pty.spawn(process.execPath, [BIN], { name: 'xterm-256color', cols: 120, rows: 35, env: cliEnv(home) as Record<string, string> }));
  let out = '';
  p.onData((d) => (out += d));
  await waitFor('the board', () => out.includes('Enter attach'));
  // The board may draw before it reads keys: Enter again until the attach has begun (a spare Enter reaches the session, harmlessly).
  const direct = () => /output goes straight to \/dev\/pts\/\d+/.test(fs.readFileSync(runnerLog(home, id), 'utf8'));
  await waitFor('direct output', () => direct() || (p.write('\r'), false), 10_000, 500);
  const from = out.length;
  p.write('hi\r');
  await waitFor('echo', () => out.slice(from).includes('got:hi'));
  const beforeDetach = out.length;
  p.write('\x1c');
  await waitFor('the board again', () => out.slice(beforeDetach).includes('detached from solo'));
  const exited = new Promise<number>((r) => p.onExit((e) => r(e.exitCode)));
  p.write('q');
  expect(await exited).toBe(0);
});
