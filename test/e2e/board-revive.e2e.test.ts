/**
 * The board after a reboot, end to end in a real terminal (tmux) against real runners: sessions
 * whose runners and programs were SIGKILLed show as lost under a line that offers R; R revives
 * them all (one outcome each on the notice line) and the rows turn live; nothing is revived
 * without R, unless config.json says autoRevive, in which case the board revives them as it
 * starts and says so.
 *
 * What the board looks like here (200x40: the preview beside the list):
 *
 *    0 | agent-board 2 sessions  ? 2 lost
 *    1 | ⚠ 2 sessions lost (the machine restarted?): R revives them all
 *    2 | › ? one      shell   lost   ...   │ ── one (lost) ...
 *    3 |   ? two      shell   lost   ...   │
 *   ...
 *   38 | <message>  ↑↓ select  Enter attach ...  ? help  q quit
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, destroyHome, makeHome, waitFor } from '../helpers/home.js';
import { powerCut } from '../helpers/reboot.js';
import { killAllTmux, OUTER_PS1, outerShellCommand, showScreen, tmuxAvailable, TmuxServer, type Screen } from '../helpers/tmux.js';

const OUTER = OUTER_PS1.trimEnd();
const BASH = ['bash', '--norc', '--noprofile'];
const SESSION_ENV = { PS1: 'INNER$ ', PROMPT_COMMAND: '', HISTFILE: '/dev/null' };

let home: string;
let config: string;
let dir: string;
beforeEach(() => {
  home = makeHome('ab-e2e-revive-');
  // The board reads config.json from here: the user's own never decides for a test.
  config = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-e2e-config-'));
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ab-e2e-dir-')));
});
afterEach(() => {
  killAllTmux();
  destroyHome(home);
  for (const d of [config, dir]) fs.rmSync(d, { recursive: true, force: true });
});

const statuses = () => (JSON.parse(cli(home, ['ls', '--json']).stdout) as { name: string; status: string }[]).map((s) => `${s.name} ${s.status}`);

/** Two shell sessions, then the power cut: both lost. */
async function twoLost(): Promise<void> {
  for (const name of ['one', 'two']) {
    const r = cli(home, ['new', '--name', name, '--cwd', dir, '--', ...BASH], { env: SESSION_ENV });
    if (r.code !== 0) throw new Error(`new failed (${r.code}): ${r.stderr}`);
  }
  await powerCut(home);
  expect(statuses()).toEqual(['one lost', 'two lost']);
}

const footer = (s: Screen) => s.lines[s.lines.length - 2] ?? '';
const isBoard = (s: Screen) => /^agent-board \d+ sessions?\b/.test(s.lines[0] ?? '') && /q quit|Esc/.test(footer(s));
/** The list's row of a session: its glyph and state. */
const row = (s: Screen, name: string) => s.lines.find((l) => new RegExp(`^[›! ][* ]\\S ${name}\\s`).test(l)) ?? '';
const BANNER = '⚠ 2 sessions lost (the machine restarted?): R revives them all';

async function board(): Promise<TmuxServer> {
  const t = TmuxServer.start({ command: outerShellCommand(home), cols: 200, rows: 40, env: { AGENT_BOARD_CONFIG_HOME: config } });
  await t.waitForScreen('the outer prompt', (s) => s.lines[0] === OUTER);
  t.typeLine('agent-board');
  return t;
}

describe.skipIf(!tmuxAvailable())('the board and lost sessions (tmux)', () => {
  it('shows them lost under an offer; nothing happens without R; R revives both and the rows turn live', async () => {
    await twoLost();
    const t = await board();
    let s = await t.waitForScreen('the lost banner', (x) => isBoard(x) && x.lines[1] === BANNER);
    expect(row(s, 'one'), showScreen(s)).toMatch(/\blost\b/);
    expect(row(s, 'two')).toMatch(/\blost\b/);
    // Not without the key.
    await new Promise((r) => setTimeout(r, 700));
    expect(statuses()).toEqual(['one lost', 'two lost']);

    t.type('R');
    s = await t.waitForScreen('both revived, on the notice line', (x) => isBoard(x) && footer(x).includes(`one revived (shell, started fresh in ${dir}); two revived (shell, started fresh in ${dir})`));
    s = await t.waitForScreen('the rows live, the banner gone', (x) => isBoard(x) && !x.text.includes('sessions lost') && !/\blost\b/.test(row(x, 'one')) && !/\blost\b/.test(row(x, 'two')));
    expect(row(s, 'one'), showScreen(s)).toMatch(/\b(idle|busy|starting)\b/);
    expect(statuses()).toEqual(['one running', 'two running']);
  });

  it('with autoRevive in config.json the board revives them as it starts, and says so', async () => {
    await twoLost();
    fs.writeFileSync(path.join(config, 'config.json'), JSON.stringify({ autoRevive: true }));
    const t = await board();
    const s = await t.waitForScreen('autoRevive on the notice line', (x) => isBoard(x) && footer(x).includes('autoRevive: one revived (shell, started fresh'));
    expect(footer(s), showScreen(s)).toContain('two revived (shell, started fresh');
    await waitFor('both running', () => statuses().join() === 'one running,two running');
    await t.waitForScreen('the banner gone', (x) => isBoard(x) && !x.text.includes('sessions lost'));
  });
});
