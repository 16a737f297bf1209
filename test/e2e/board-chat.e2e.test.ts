/**
 * The board's chat pane, end to end, in a real terminal: `agent-board` at the
 * prompt of an outer bash in a private tmux server (120x35), a session with
 * a real runner in room r1, the chat file on disk, and agent posts made with
 * the CLI from "inside" the session (AGENT_BOARD_SESSION set, as its runner
 * sets it for the program). Keys go in with send-keys; the screen is read
 * with capture-pane.
 *
 *    0 | agent-board 1 session  ● 1 idle      ⏸ room r1 paused (loop guard) — c then /continue
 *    1 | › ● alpha    shell   idle         1s  ALPHA-READY
 *    2 | ── chat r1 (alpha) ───────────────────────────────
 *   ...  (the messages, newest at the bottom)
 *   31 | #1 12:00 human: hello from the board
 *   32 | ›                                    (the input line)
 *   33 | Enter send  Esc close  PgUp PgDn scroll
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkSenderName, type ChatRecord } from '../../src/core/chat/chat.js';
import { readChat } from '../../src/state/chat-store.js';
import { cli, destroyHome, makeHome, waitFor } from '../helpers/home.js';
import { killAllTmux, OUTER_PS1, outerShellCommand, showScreen, tmuxAvailable, TmuxServer, type Screen } from '../helpers/tmux.js';

const OUTER = OUTER_PS1.trimEnd();
const COLS = 120;
const ROWS = 35;
const BANNER = '⏸ room r1 paused (loop guard) — c then /continue';
const CHAT_FOOTER = 'Enter send  Esc close  PgUp PgDn scroll';

let home: string;

beforeEach(() => {
  home = makeHome('ab-e2e-chat-');
});

afterEach(() => {
  killAllTmux();
  destroyHome(home);
});

/** The footer: the board's last row (Ink draws one row short of the pane). */
const footer = (s: Screen) => s.lines[s.lines.length - 2] ?? '';
/** In the chat pane: the input line, and the newest message above it. */
const inputLine = (s: Screen) => s.lines[s.lines.length - 3] ?? '';
const newest = (s: Screen) => s.lines[s.lines.length - 4] ?? '';
const chatOpen = (s: Screen) => s.lines.some((l) => /^── chat r1 \(alpha\) /.test(l)) && footer(s) === CHAT_FOOTER;

/** Who the board posts as: $USER when it is a valid sender name, else `human`. */
function expectedHuman(): string {
  const user = process.env.USER;
  return user && checkSenderName(user) === null && user !== 'alpha' ? user : 'human';
}

function chatRecords(): ChatRecord[] {
  return readChat(home, 'r1');
}

function run(args: string[], env: Record<string, string> = {}): string {
  const r = cli(home, args, { env });
  if (r.code !== 0) throw new Error(`agent-board ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

describe.skipIf(!tmuxAvailable())('the chat pane in a real terminal (tmux)', () => {
  it('c opens the room, Enter posts as the human, a paused room shows in the header, /continue from the pane resumes it', async () => {
    const id = run(['new', '--name', 'alpha', '--room', 'r1', '--', 'sh', '-c', 'echo ALPHA-READY; exec sleep 600']).trim();

    // The board, run by a human: whatever session this test itself runs in is not the board's.
    const t = TmuxServer.start({ command: ['env', '-u', 'AGENT_BOARD_SESSION', ...outerShellCommand(home).slice(1)], cols: COLS, rows: ROWS });
    await t.waitForScreen('the outer prompt', (s) => s.lines[0] === OUTER);
    t.typeLine('agent-board');
    await t.waitForScreen('the board with alpha', (s) => /^agent-board 1 session\b/.test(s.lines[0] ?? '') && s.text.includes('ALPHA-READY'));

    // ---- c: the chat of alpha's room, empty so far.
    t.keys(['c']);
    let s = await t.waitForScreen('the chat pane of r1', chatOpen);
    await t.waitForScreen('the empty room', (x) => x.text.includes('No messages in room r1 yet'));
    expect(s.lines[1]).toMatch(/^› [◐●] alpha /); // the list stays above the pane (alpha busy printing, or idle since)

    // ---- type and Enter: the chat file has it, from the human; the pane shows it above an empty line.
    t.type('hello from the board, q and c are text here');
    t.keys(['Enter']);
    const posted = await waitFor('the post in chat.jsonl', () => chatRecords().find((r) => r.text.startsWith('hello from the board')));
    expect(posted).toMatchObject({ id: 1, from: expectedHuman(), kind: 'human', text: 'hello from the board, q and c are text here', mentions: [] });
    s = await t.waitForScreen('the post in the pane', (x) => /^#1 \d\d:\d\d \S+: hello from the board, q and c are text here$/.test(newest(x)) && inputLine(x).trim() === '›');

    // ---- Esc: back to the list.
    t.keys(['Escape']);
    s = await t.waitForScreen('the list again', (x) => !x.text.includes('── chat') && footer(x).endsWith('? help  q quit'));
    expect(s.lines[0]).not.toContain('paused');

    // ---- the loop guard: max hops 4, then four agent messages from inside alpha pause the room.
    expect(run(['chat', 'config', '--room', 'r1', '--max-hops', '4'])).toBe('room r1: max hops 4\n');
    for (let i = 1; i <= 4; i++) run(['chat', 'post', `ping ${i}`], { AGENT_BOARD_SESSION: id });
    const records = chatRecords();
    expect(records.slice(1, 5).map((r) => [r.from, r.kind])).toEqual(Array(4).fill(['alpha', 'agent']));
    expect(records.at(-1)).toMatchObject({ kind: 'system', event: 'pause' });
    s = await t.waitForScreen('the paused banner in the header', (x) => (x.lines[0] ?? '').includes(BANNER));
    expect(s.lines[0], showScreen(s)).toMatch(/^agent-board 1 session +(◐ 1 busy|● 1 idle) +⏸ room r1 paused \(loop guard\) — c then \/continue$/);

    // ---- c, /continue, Enter: the room resumes; the banner goes; the footer says so.
    t.keys(['c']);
    s = await t.waitForScreen('the paused room in the pane', (x) => chatOpen(x) && x.text.includes('⏸ paused: /continue resumes') && /system: loop guard: 4 agent messages/.test(x.text));
    t.type('/continue');
    t.keys(['Enter']);
    await waitFor('the resume in chat.jsonl', () => chatRecords().at(-1)?.event === 'resume');
    expect(chatRecords().slice(-2)).toMatchObject([
      { from: expectedHuman(), kind: 'human', text: '/continue' },
      { from: 'system', kind: 'system', event: 'resume', text: `resumed by ${expectedHuman()}` },
    ]);
    s = await t.waitForScreen('the banner gone and the resume said', (x) => !(x.lines[0] ?? '').includes('paused') && footer(x).startsWith('room r1 resumed'));
    expect(newest(s)).toMatch(/^#\d+ \d\d:\d\d system: resumed by /);
    expect(s.text).not.toContain('⏸');

    // ---- Esc, q: the outer shell, the session still running.
    t.keys(['Escape']);
    await t.waitForScreen('the list again', (x) => footer(x).endsWith('? help  q quit'));
    t.keys(['q']);
    await t.waitForScreen('the outer prompt after q', (x) => x.lines[1] === OUTER);
    // Still running, and idle once the wakes typed into it have been quiet for the idle threshold
    // (right after q it can still read busy: the header above allows either for the same reason).
    const listed = await waitFor('alpha idle in ls', () => {
      const out = run(['ls']);
      return /alpha\s+shell\s+idle\s/.test(out) ? out : null;
    });
    expect(listed).toMatch(/alpha\s+shell\s+idle\s/);
  });
});
