/**
 * The demo agent: a small TUI that looks and behaves enough like a coding
 * agent for the board to show sessions, wakes, status and the loop guard, with
 * no API key. It says what it is. Idle: a prompt box and `? for shortcuts`,
 * title `✳ NAME (demo)`. A submitted line starts a turn: a braille spinner
 * and `esc to interrupt`, repainted every 100 ms, the spinner in the title
 * too; Esc interrupts. A wake (a line holding `chat read`) makes it run that
 * read with agent-board, then answer with `chat post`, mentioning the agent
 * that wrote or else its peer. Every full render starts with ESC[2J.
 *
 *   node dist/demo/demo-agent.js [--name N] [--peer P] [--room R] [--work-ms MS]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { findProgram } from '../state/process/find-program.js';
import { startCommand, type Running } from '../state/process/run.js';
import { realScheduler } from '../state/real-time.js';
import { echoText, fit, oneLine, parseRecords, parseWake, quoted, replyTarget, replyText, wrap, type WakeCommand } from './demo-replies.js';

const { values: opts } = parseArgs({
  options: { name: { type: 'string' }, peer: { type: 'string' }, room: { type: 'string' }, 'work-ms': { type: 'string' } },
  strict: false,
});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const NAME = str(opts.name) ?? process.env.AGENT_BOARD_NAME ?? 'demo';
const PEER = str(opts.peer);
const ROOM = str(opts.room) ?? 'demo';
const workMs = Number(str(opts['work-ms']) ?? process.env.AGENT_BOARD_DEMO_WORK_MS ?? 3000);
const WORK_MS = Number.isFinite(workMs) && workMs >= 0 ? workMs : 3000;
const SPINNER = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';
const out = process.stdout;

interface Turn {
  id: number;
  label: string;
  startedAt: number;
  /** The agent-board command the turn runs, which its end cancels. */
  child: Running | null;
  timer: NodeJS.Timeout | null;
}

let turn: Turn | null = null;
let turns = 0;
let frame = 0;
let input = '';
/** Lines submitted during a turn, run after it. */
const queued: string[] = [];
let ticker: NodeJS.Timeout | null = null;
const transcript: string[] = [];

// ---- drawing -------------------------------------------------------------------

const size = () => ({ cols: Math.max(24, out.columns || 80), rows: Math.max(10, out.rows || 24) });
const at = (row: number, text: string) => `\x1b[${row};1H\x1b[2K${text}`;
const dim = (s: string) => `\x1b[2m${s}\x1b[0m`;
const title = (t: string) => `\x1b]0;${t}\x07`;

function spinnerLine(cols: number): string {
  const t = turn!;
  const secs = Math.floor((Date.now() - t.startedAt) / 1000);
  const more = queued.length ? ` · ${queued.length} queued` : '';
  return `\x1b[33m${SPINNER[frame % SPINNER.length]}\x1b[0m ${fit(`${t.label} (${secs}s · esc to interrupt${more})`, cols - 3)}`;
}

/** The bottom four rows: the spinner while working, else the prompt box. */
function footer(cols: number, rows: number): string {
  const top = rows - 3;
  if (turn) return at(top, spinnerLine(cols)) + at(top + 1, '') + at(top + 2, '') + at(top + 3, '') + title(`${SPINNER[frame % SPINNER.length]} ${NAME} (demo)`);
  const inner = cols - 5; // "│ > " ... "│"
  const shown = [...input].slice(-(inner - 1)).join('');
  return (
    at(top, dim(`╭${'─'.repeat(cols - 3)}╮`)) +
    at(top + 1, `${dim('│')} > ${shown.padEnd(inner - 1)}${dim('│')}`) +
    at(top + 2, dim(`╰${'─'.repeat(cols - 3)}╯`)) +
    at(top + 3, dim('  ? for shortcuts')) +
    title(`✳ ${NAME} (demo)`) +
    `\x1b[${top + 1};${5 + [...shown].length}H\x1b[?25h`
  );
}

/** A full render: clear, header, the transcript's last lines, the footer. */
function render(): void {
  const { cols, rows } = size();
  const header = [
    `\x1b[1mdemo agent ${fit(NAME, Math.max(8, cols - 50))}\x1b[0m — a scripted stand-in, not an AI`,
    dim(fit(`A chat mention wakes me: I read the chat and answer${PEER ? ` @${PEER}` : ''}. No model, no key.`, cols)),
  ];
  const room = rows - 8;
  const body = transcript.slice(-room).flatMap((l) => wrap(l, cols)).slice(-room);
  let s = '\x1b[?25l\x1b[2J\x1b[H';
  header.forEach((l, i) => (s += at(i + 1, l)));
  body.forEach((l, i) => (s += at(i + 4, l)));
  out.write(s + footer(cols, rows));
}

function renderFooter(): void {
  const { cols, rows } = size();
  out.write((turn ? '' : '\x1b[?25l') + footer(cols, rows));
}

function say(...lines: string[]): void {
  transcript.push(...lines);
  if (transcript.length > 500) transcript.splice(0, transcript.length - 500);
  render();
}

// ---- turns -----------------------------------------------------------------------

function startTurn(label: string): number {
  turns++;
  turn = { id: turns, label, startedAt: Date.now(), child: null, timer: null };
  ticker = setInterval(() => {
    frame++;
    renderFooter();
  }, 100);
  render();
  return turns;
}

const live = (id: number) => turn?.id === id;

function setLabel(id: number, label: string): void {
  if (live(id)) turn!.label = label;
}

function endTurn(id: number, ...lines: string[]): void {
  if (!live(id)) return;
  if (turn!.timer) clearTimeout(turn!.timer);
  turn!.child?.dispose();
  turn = null;
  if (ticker) clearInterval(ticker);
  ticker = null;
  say(...lines, '');
  const next = queued.shift();
  if (next !== undefined) setImmediate(() => (turn ? queued.unshift(next) : submit(next)));
}

/** Resolves after `ms` unless the turn ends first (then never: the turn's code stops there). */
function pause(id: number, ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (live(id)) turn!.timer = setTimeout(resolve, ms);
  });
}

/** agent-board as found on PATH (the runner appends ours), else the one next to this file. */
function agentBoard(): string {
  return findProgram('agent-board') ?? fileURLToPath(new URL('../../bin/agent-board', import.meta.url));
}

/** How long one `agent-board chat` may take before the turn gives up on it (a loaded machine takes a second or two). */
const COMMAND_TIMEOUT_MS = 20_000;
const scheduler = realScheduler();

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(id: number, args: string[]): Promise<Ran> {
  // Our node stays findable for the script's `#!/usr/bin/env node`.
  const env = { ...process.env, PATH: `${process.env.PATH ?? ''}:${path.dirname(process.execPath)}` };
  const running = startCommand(agentBoard(), args, { env, timeoutMs: COMMAND_TIMEOUT_MS, scheduler });
  if (live(id)) turn!.child = running;
  const r = await running.result;
  // Not started, or ended by a signal: 1, as a failure of its own would be.
  return { code: r.error || r.code === null ? 1 : r.code, stdout: r.stdout, stderr: r.stderr };
}

const outputLines = (r: Ran) => `${r.stdout}${r.stderr}`.trim().split('\n').filter(Boolean).map((l) => `  ⎿ ${l}`);

async function answerWake(id: number, wake: WakeCommand): Promise<void> {
  const readArgs = ['chat', 'read', '--room', wake.room, '--since', String(wake.since), '--mentions-only', '--json'];
  const read = await run(id, readArgs);
  if (!live(id)) return;
  if (read.code !== 0) return endTurn(id, `⏺ agent-board ${readArgs.join(' ')}`, ...outputLines(read), `  ⎿ (exit ${read.code})`);
  const messages = parseRecords(read.stdout);
  say(`⏺ agent-board ${readArgs.join(' ')}`, ...(messages.length ? messages.map((m) => `  ⎿ #${m.id} ${m.from}: ${oneLine(m.text)}`) : ['  ⎿ (no new message mentions me)']));
  const to = replyTarget(messages, NAME, PEER);
  if (!to) return endTurn(id, '⏺ (demo) Nothing to answer.');
  setLabel(id, 'Writing a canned reply…');
  await pause(id, WORK_MS);
  if (!live(id)) return;
  const text = replyText(to, NAME, messages.at(-1)!.id, messages.at(-1)!.id + id);
  const postArgs = ['chat', 'post', '--room', wake.room, text];
  setLabel(id, 'Posting…');
  const posted = await run(id, postArgs);
  endTurn(id, `⏺ agent-board ${postArgs.map(quoted).join(' ')}`, ...outputLines(posted));
}

async function answerLine(id: number, line: string): Promise<void> {
  await pause(id, WORK_MS);
  endTurn(id, `⏺ ${echoText(line, NAME, ROOM, id)}`);
}

function submit(line: string): void {
  const text = line.trim();
  if (!text) return renderFooter();
  if (text === '?') {
    return say('  Enter: submit  Esc: interrupt a turn  Ctrl-U: clear  Ctrl-C (empty prompt): quit', '  A line holding "chat read" is a wake: I run it and answer in the chat.', '');
  }
  transcript.push(`> ${oneLine(text)}`);
  const wake = parseWake(text);
  const id = startTurn(wake ? 'Reading the chat…' : 'Pretending to think…');
  void (wake ? answerWake(id, wake) : answerLine(id, text));
}

// ---- keys --------------------------------------------------------------------------

function quit(): never {
  out.write(`\x1b[?25h\x1b[2J\x1b[H${title('')}demo agent ${NAME}: bye\r\n`);
  if (process.stdin.isTTY) process.stdin.setRawMode(false);
  process.exit(0);
}

function onKeys(data: string): void {
  // While working, Esc alone (not the start of a key sequence) or Ctrl-C interrupts, and drops what was queued.
  if (turn && (data === '\x1b' || data.includes('\x03'))) {
    queued.length = 0;
    input = '';
    return endTurn(turn.id, '  ⎿ Interrupted by the user');
  }
  for (let i = 0; i < data.length; i++) {
    const c = data[i]!;
    if (c === '\x1b') {
      // Skip a CSI or SS3 sequence (arrows, function keys); a lone Esc does nothing here.
      if (data[i + 1] === '[' || data[i + 1] === 'O') {
        i += 2;
        while (i < data.length && data[i]! < '@') i++;
      }
    } else if (c === '\r' || c === '\n') {
      const line = input;
      input = '';
      // A line submitted while working waits for the turn to end, as real agents queue it.
      if (turn) {
        if (line.trim()) queued.push(line);
      } else submit(line);
    } else if (c === '\x7f' || c === '\b') input = [...input].slice(0, -1).join('');
    else if (c === '\x15') input = '';
    else if (c === '\x04' || c === '\x03') {
      if (!input && !turn) quit();
      input = '';
    } else if (c >= ' ') input += c;
  }
  renderFooter();
}

if (process.stdin.isTTY) process.stdin.setRawMode(true);
process.stdin.setEncoding('utf8');
process.stdin.on('data', (d: string) => onKeys(d));
// A SIGWINCH with the size unchanged (a jiggle) redraws too: Node's 'resize' fires only on a change.
let redrawQueued = false;
const redraw = () => {
  if (redrawQueued) return;
  redrawQueued = true;
  setImmediate(() => {
    redrawQueued = false;
    render();
  });
};
process.on('SIGWINCH', redraw);
out.on('resize', redraw);
for (const sig of ['SIGTERM', 'SIGHUP'] as const) process.on(sig, quit);
render();
