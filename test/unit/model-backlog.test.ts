/**
 * The model off the output's critical path: it lags behind a burst in a bounded backlog, parses
 * in small slices while the output is hot and flat out when it is not, pauses the PTY only past
 * its bound, and everything that reads it (snapshots, status) waits until it has taken in what
 * came before the question. xterm parses on its own timers; the model's rests, its hot window
 * and the tracker's checks run on the FakeTime the test moves.
 */
import { describe, expect, it } from 'vitest';
import { kindOf } from '../../src/core/agents/kind-rules.js';
import { ActivityTracker, SCREEN_CHECK_MS } from '../../src/runner/activity/activity-tracker.js';
import { BACKLOG_HIGH_BYTES, ModelBacklog } from '../../src/runner/model/model-backlog.js';
import { screenLines } from '../../src/runner/model/model-text.js';
import { HOT_BATCH_BYTES, HOT_REST_MS, HOT_WINDOW_MS, TerminalModel } from '../../src/runner/model/terminal-model.js';
import { Terminal } from '../../src/state/headless-terminal.js';
import { FakeTime } from '../helpers/fake-time.js';
import { SHIPPED } from '../helpers/kinds.js';

const CHUNK = 4095; // what a Linux PTY gives per read
const OLD_PARSER_HIGH_WATER = 1024 * 1024; // the bound that paused the PTY before the backlog

/** Numbered lines, `bytes` long in all, cut into PTY-sized chunks. */
function burst(bytes: number, tag = 'line'): string[] {
  let s = '';
  for (let i = 0; s.length < bytes; i++) s += `${tag} ${String(i).padStart(7, '0')} ${'abcdefghij'.repeat(6)}\r\n`;
  const chunks: string[] = [];
  for (let at = 0; at < s.length; at += CHUNK) chunks.push(s.slice(at, at + CHUNK));
  return chunks;
}

const tick = () => new Promise<void>((r) => setImmediate(r));

/** Lets xterm's own timers and the model's rests run until `done` (time moves HOT_REST_MS a step). */
async function until(time: FakeTime, done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    time.advance(HOT_REST_MS);
    await tick();
  }
}

function screenOf(term: { buffer: { active: { viewportY: number; getLine(y: number): { translateToString(trim: boolean): string } | undefined } }; rows: number }): string[] {
  const buf = term.buffer.active;
  return Array.from({ length: term.rows }, (_, y) => buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '');
}

async function reference(cols: number, rows: number, data: string, scrollback = 100): Promise<string[]> {
  const t = new Terminal({ cols, rows, scrollback, allowProposedApi: true });
  await new Promise<void>((r) => t.write(data, r));
  const lines = screenOf(t);
  t.dispose();
  return lines;
}

describe('ModelBacklog', () => {
  it('joins whole chunks up to a batch size (at least one), keeps resizes in order, and knows its bound', () => {
    const pressure: boolean[] = [];
    const b = new ModelBacklog({ high: 10, low: 4 }, (p) => pressure.push(p));
    b.pushData('abc', 1);
    b.pushData('defg', 2);
    b.pushResize(10, 5);
    b.pushData('hijklmnop', 3);
    expect(b.take(5)).toEqual({ kind: 'data', data: 'abc', nextSeq: 1 }); // 'defg' would pass 5
    expect(b.take(100)).toEqual({ kind: 'data', data: 'defg', nextSeq: 2 }); // stops at the resize
    expect(b.take(100)).toEqual({ kind: 'resize', cols: 10, rows: 5 });
    expect(b.take(1)).toEqual({ kind: 'data', data: 'hijklmnop', nextSeq: 3 }); // one chunk even past the size
    expect(b.isEmpty).toBe(true);
    expect(pressure).toEqual([true]); // 16 units waiting passed 10
    b.parsed(7);
    expect(pressure).toEqual([true]); // 9 is still above the low mark
    b.parsed(6);
    expect(pressure).toEqual([true, false]);
    expect(b.bytes).toBe(3);
  });

  it('joins bytes with bytes and text with text, never the two in one batch, and counts bytes', () => {
    const b = new ModelBacklog({ high: 100, low: 50 });
    const bytes = (s: string) => Buffer.from(s, 'utf8');
    b.pushData(bytes('é€'), 1); // 5 bytes
    b.pushData(bytes('😀'), 2); // 4 bytes
    b.pushData('\ufffd', 3); // a chunk that was not UTF-8 waits as its text (1 unit)
    b.pushData('x', 4);
    b.pushData(bytes('y'), 5);
    expect(b.bytes).toBe(12);
    const first = b.take(100)!;
    expect(first).toMatchObject({ kind: 'data', nextSeq: 2 });
    expect(Buffer.isBuffer(first.kind === 'data' && first.data)).toBe(true);
    expect(Buffer.from((first as { data: Uint8Array }).data).toString('utf8')).toBe('é€😀');
    expect(b.take(100)).toEqual({ kind: 'data', data: '\ufffdx', nextSeq: 4 });
    const last = b.take(100) as { data: Uint8Array; nextSeq: number };
    expect([Buffer.from(last.data).toString('utf8'), last.nextSeq]).toEqual(['y', 5]);
    b.parsed(9);
    b.parsed(2);
    b.parsed(1);
    expect(b.bytes).toBe(0);
  });

  it('the bound is tens of MiB, far above the old parser bound', () => {
    expect(BACKLOG_HIGH_BYTES).toBeGreaterThanOrEqual(16 * OLD_PARSER_HIGH_WATER);
  });
});

describe('TerminalModel backlog', () => {
  it('takes a burst far past the old bound without asking for a pause, lags while it is hot, then catches up exactly', async () => {
    const time = new FakeTime();
    const pressure: boolean[] = [];
    const caughtUp: number[] = [];
    const m = new TerminalModel({ cols: 80, rows: 24, scrollback: 100, clock: time, scheduler: time });
    m.onPressure((p) => pressure.push(p));
    m.onCaughtUp(() => caughtUp.push(m.parsedSeq));
    const chunks = burst(4 * OLD_PARSER_HIGH_WATER);
    chunks.forEach((c, i) => m.write(c, i + 1)); // all at one instant: hot
    expect(pressure).toEqual([]);
    // While hot the parse takes a small batch and rests: without time moving it gets no further.
    for (let i = 0; i < 20; i++) await tick();
    const before = chunks.slice(0, m.parsedSeq).join('').length;
    expect(before).toBeLessThanOrEqual(HOT_BATCH_BYTES + CHUNK);
    expect(m.backlogBytes).toBeGreaterThan(3 * OLD_PARSER_HIGH_WATER);
    // The output goes quiet: the model catches up, flat out.
    time.advance(HOT_WINDOW_MS);
    await until(time, () => m.parsedSeq === chunks.length, 'the catch-up');
    expect(m.backlogBytes).toBe(0);
    expect(pressure).toEqual([]);
    expect(caughtUp).toEqual([chunks.length]);
    expect(screenLines(m)).toEqual(await reference(80, 24, chunks.join('')));
    m.dispose();
  }, 60_000);

  it('pauses the PTY past its bound and resumes it below the low mark, once each', async () => {
    const time = new FakeTime();
    const pressure: boolean[] = [];
    const high = 2 * OLD_PARSER_HIGH_WATER;
    const m = new TerminalModel({ cols: 80, rows: 24, scrollback: 100, clock: time, scheduler: time, backlog: { high, low: high / 2 } });
    m.onPressure((p) => pressure.push(p));
    const chunks = burst(3 * OLD_PARSER_HIGH_WATER);
    let paused = false;
    let written = 0;
    // A PTY that stops giving output while paused, as node-pty does.
    while (written < chunks.length) {
      if (pressure.at(-1) === true && !paused) paused = true;
      if (paused && pressure.at(-1) === false) paused = false;
      if (paused) {
        await until(time, () => pressure.at(-1) === false, 'the resume');
        continue;
      }
      m.write(chunks[written]!, ++written);
    }
    expect(pressure).toEqual([true, false]);
    await until(time, () => m.parsedSeq === chunks.length, 'the catch-up');
    expect(pressure).toEqual([true, false]);
    expect(screenLines(m)).toEqual(await reference(80, 24, chunks.join('')));
    m.dispose();
  }, 60_000);

  it('a snapshot asked for right after a burst waits for all of it, hurries the parse, and is exact', async () => {
    const time = new FakeTime();
    const m = new TerminalModel({ cols: 100, rows: 30, scrollback: 200, clock: time, scheduler: time });
    const chunks = burst(3 * OLD_PARSER_HIGH_WATER);
    chunks.forEach((c, i) => m.write(c, i + 1));
    let served: { seq: number; frame: string } | null = null;
    m.whenSettled(() => (served = { seq: m.parsedSeq, frame: m.screenFrame() }));
    // Time does not move: a waiting snapshot alone takes the parse out of its rests.
    const deadline = Date.now() + 30_000;
    while (!served && Date.now() < deadline) await tick();
    const got = served as { seq: number; frame: string } | null;
    expect(got?.seq).toBe(chunks.length);
    const rebuilt = new Terminal({ cols: 100, rows: 30, scrollback: 0, allowProposedApi: true });
    await new Promise<void>((r) => rebuilt.write(got!.frame, r));
    expect(screenOf(rebuilt)).toEqual(await reference(100, 30, chunks.join('')));
    rebuilt.dispose();
    m.dispose();
  }, 60_000);

  it('whenParsed runs once what was written before it is in, without hurrying the parse', async () => {
    const time = new FakeTime();
    const m = new TerminalModel({ cols: 80, rows: 24, scrollback: 100, clock: time, scheduler: time });
    let ran = 0;
    m.whenParsed(() => ran++);
    expect(ran).toBe(1); // nothing written: at once
    const chunks = burst(OLD_PARSER_HIGH_WATER);
    chunks.forEach((c, i) => m.write(c, i + 1));
    let at = -1;
    m.whenParsed(() => (at = m.parsedSeq));
    m.write('later\r\n', chunks.length + 1); // after the question: not waited for
    for (let i = 0; i < 20; i++) await tick();
    expect(at).toBe(-1); // still resting: whenParsed does not hurry it
    time.advance(HOT_WINDOW_MS);
    await until(time, () => at >= 0, 'whenParsed');
    expect(at).toBeGreaterThanOrEqual(chunks.length);
    m.dispose();
  }, 60_000);

  it('status read after a burst reflects the final screen: the check waits for the model', async () => {
    const time = new FakeTime();
    const m = new TerminalModel({ cols: 80, rows: 20, scrollback: 100, clock: time, scheduler: time });
    const reads: number[] = [];
    let written = 0;
    const tracker = new ActivityTracker({
      kind: kindOf(SHIPPED, 'pi'),
      kinds: SHIPPED,
      view: {
        title: () => m.trackedModes.title,
        screenLines: () => {
          reads.push(written - m.parsedSeq);
          return screenLines(m);
        },
        whenCurrent: (fn) => m.whenParsed(fn),
      },
      clock: time,
      scheduler: time,
      hooks: { wired: false },
    });
    tracker.start();
    const RULE = '─'.repeat(60);
    const draw = (rows: string[]) => `\x1b[2J\x1b[H${rows.join('\r\n')}`;
    const print = (data: string) => {
      m.write(data, ++written);
      tracker.output();
    };
    print(draw([' ⠏ Working...', '', RULE, '', RULE, '~/app (master)', '0.0%/128k (auto)    (mock) mock-model']));
    await until(time, () => tracker.activity?.source === 'screen', 'the busy reading');
    expect(tracker.activity?.activity).toBe('busy');
    // A burst, and the idle editor drawn at its end, all in one instant.
    for (const c of burst(2 * OLD_PARSER_HIGH_WATER)) print(c);
    print(draw([RULE, '', RULE, '~/app (master)', '0.0%/128k (auto)    (mock) mock-model']));
    reads.length = 0;
    time.advance(SCREEN_CHECK_MS); // the check is due, the model is far behind: it waits
    expect(reads).toEqual([]);
    await until(time, () => reads.length > 0, 'the screen check');
    expect(reads).toEqual([0]); // read once, with everything in
    expect(tracker.activity).toMatchObject({ activity: 'idle', source: 'screen' });
    tracker.dispose();
    m.dispose();
  }, 60_000);
});
