/**
 * The board's attach (Enter) takes direct output and direct input too when the board runs in a
 * terminal: the runner writes to the board's terminal and reads its keys, and the board draws
 * again after the hand-back, with its keys back (those typed after the detach key included).
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

/** The board in a PTY, attached (Enter) to its one session `solo`, with the runner writing to its terminal and reading its keys. */
async function boardAttached() {
  const id = newSession(home, ['--name', 'solo', '--', 'sh', '-c', 'stty -echo; echo solo-ready; while IFS= read -r l; do echo "got:$l"; done']);
  const p = (board = pty.spawn(process.execPath, [BIN], { name: 'xterm-256color', cols: 120, rows: 35, env: cliEnv(home) as Record<string, string> }));
  const t = { p, out: '', id };
  p.onData((d) => (t.out += d));
  await waitFor('the board', () => t.out.includes('Enter attach'));
  // The board may draw before it reads keys: Enter again until the attach has begun (a spare Enter reaches the session, harmlessly).
  const direct = () => /input comes straight from \/dev\/pts\/\d+/.test(fs.readFileSync(runnerLog(home, id), 'utf8'));
  await waitFor('direct output and input', () => direct() || (p.write('\r'), false), 10_000, 500);
  expect(fs.readFileSync(runnerLog(home, id), 'utf8')).toMatch(/output goes straight to \/dev\/pts\/\d+/);
  return t;
}

it('the keys typed after the detach key, in the same read, are the board\'s', async () => {
  const { p } = await boardAttached();
  const exited = new Promise<number>((r) => p.onExit((e) => r(e.exitCode)));
  // The runner reads both; it hands the q back with the terminal, and the board, drawn again, quits on it.
  p.write('\x1cq');
  expect(await exited).toBe(0);
});

it('attaching from the board writes the session straight to the board terminal, and the board comes back on detach', async () => {
  const t = await boardAttached();
  const from = t.out.length;
  t.p.write('hi\r');
  await waitFor('echo', () => t.out.slice(from).includes('got:hi'));
  const beforeDetach = t.out.length;
  t.p.write('\x1c');
  await waitFor('the board again', () => t.out.slice(beforeDetach).includes('detached from solo'));
  const exited = new Promise<number>((r) => t.p.onExit((e) => r(e.exitCode)));
  t.p.write('q');
  expect(await exited).toBe(0);
});
