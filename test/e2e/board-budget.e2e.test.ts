/**
 * Budgets on the board, end to end in a real terminal (tmux) against real runners: a session whose
 * record says it spent over its own budget (written while it was stopped, then restarted: its
 * runner starts from that record) has its row marked, a prompt from the board is not typed and
 * the panel says why, and `!` sends it anyway, typed exactly once (stdin-recorder.mjs writes down
 * every byte its program reads).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import { hostFile } from '../../src/state/paths.js';
import { count, readHost, received, RECORDER } from '../helpers/control.js';
import { cli, destroyHome, makeHome, waitFor, waitForPeekLines } from '../helpers/home.js';
import { killAllTmux, OUTER_PS1, outerShellCommand, POLL_MS, showScreen, tmuxAvailable, TmuxServer, type Screen } from '../helpers/tmux.js';

let home: string;
let scratch: string[] = [];

beforeEach(() => {
  home = makeHome('ab-e2e-budget-');
  scratch = [];
});

afterEach(() => {
  killAllTmux();
  destroyHome(home);
  for (const d of scratch) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  scratch.push(d);
  return d;
}

const env = () => ({ AGENT_BOARD_CONFIG_HOME: path.join(home, 'config') });
const footer = (s: Screen) => s.lines[s.lines.length - 2] ?? '';
const isBoard = (s: Screen) => /^agent-board \d+ sessions?\b/.test(s.lines[0] ?? '') && /q quit|Esc/.test(footer(s));
const alive = (pid: number | null) => {
  try {
    return pid !== null && process.kill(pid, 0);
  } catch {
    return false;
  }
};
const ready = (name: string) => waitForPeekLines(home, name, 'the recorder ready', (l) => l.some((x) => x.startsWith('recorder ready')), POLL_MS);

describe.skipIf(!tmuxAvailable())('budgets on the board (tmux)', () => {
  it('marks a session over its budget; its prompt is held and the panel says why; ! sends it anyway, once', async () => {
    const dir = tempDir('ab-e2e-spender-');
    const made = cli(home, ['new', '--name', 'spender', '--budget', '$1', '--', process.execPath, RECORDER, dir], { env: env() });
    expect(made.code, made.stderr).toBe(0);
    const id = made.stdout.trim();
    await ready('spender');
    // Its spending, written into its record while it is stopped; the restarted runner starts from it.
    expect(cli(home, ['kill', 'spender']).code).toBe(0);
    const pid = readHost(home, id).runnerPid;
    await waitFor('the old runner gone', () => !alive(pid));
    const rec: HostRecord = readHost(home, id);
    rec.usage = { tokens: { input: 900, output: 100, cacheWrite: 0, cacheRead: 0 }, costUsd: 1.5, unpriced: [], models: ['m'], messages: 2, file: '/t.jsonl', skipped: 0, updatedAt: new Date().toISOString() };
    fs.writeFileSync(hostFile(home, id), JSON.stringify(rec));
    expect(cli(home, ['restart', 'spender'], { env: env() }).code).toBe(0);
    await ready('spender');
    await waitFor('the record says it', () => readHost(home, id).budgetState?.level === 'over');

    const t = TmuxServer.start({ command: outerShellCommand(home), cols: 120, rows: 35 });
    await t.waitForScreen('the outer prompt', (s) => s.lines[0] === OUTER_PS1.trimEnd());
    t.typeLine('agent-board');
    let s = await t.waitForScreen('the board, the row marked', (x) => isBoard(x) && x.lines.some((l) => /^› ● spender .*overbudget/.test(l)));
    expect(s.text).toContain('(idle · over budget)'); // the preview's title

    t.type('p');
    await t.waitForScreen('the prompt line', (x) => x.lines.some((l) => /^── prompt to spender ─+$/.test(l)));
    t.type('hello budget');
    t.keys(['Enter']);
    s = await t.waitForScreen('held', (x) => footer(x).startsWith('spender: not typed: spender is over its budget ($1.50 of $1.00): prompts held (! sends it anyway)'));
    expect(s.lines, showScreen(s)).toContain('  spender  not typed  spender is over its budget ($1.50 of $1.00): prompts held (! sends it anyway)');
    await new Promise((r) => setTimeout(r, 300));
    expect(received(dir)).not.toContain('hello budget');

    t.type('!');
    s = await t.waitForScreen('sent anyway', (x) => footer(x).startsWith('spender: applied'));
    await waitFor('the prompt and its Enter', () => received(dir).includes('hello budget\r'));
    expect(count(received(dir), 'hello budget')).toBe(1);
    t.keys(['Escape']);
    await t.waitForScreen('the list again', (x) => isBoard(x) && !x.text.includes('── prompt to'));
  });
});
