import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CmdAck } from '../../src/core/protocol/control-protocol.js';
import { ENTER_ECHO_WAIT_MS } from '../../src/core/agents/agent-kinds.js';
import { PASTE_END, PASTE_START } from '../../src/core/terminal/prompt-text.js';
import { DEFAULT_QUIET_MS, DurableInputs, type PromptTarget } from '../../src/runner/control/durable-inputs.js';
import { ENTER_AFTER_ECHO_MS } from '../../src/runner/control/enter-after-echo.js';
import { CommandJournal } from '../../src/runner/control/journal.js';
import { realClock, realScheduler } from '../../src/state/real-time.js';

/** A session stand-in whose clock is vitest's: what the program got, and when it last printed. */
function fakeTarget(generation = 'gen-1') {
  let lastOutput = -Infinity;
  const t = {
    generation,
    exited: false,
    paste: false,
    written: [] as string[],
    bracketedPaste: () => t.paste,
    write: (d: string) => void t.written.push(d),
    enterDelayMs: () => 150,
    echo: false,
    enterAfterEcho: () => t.echo,
    quietFor: () => Date.now() - lastOutput,
    /** What the program has drawn, one line. */
    screen: '',
    shows: (text: string) => t.screen.includes(text),
    /** The program printed: `drawn` is on its screen now (nothing new: it drew something else). */
    print: (drawn = '') => void ((lastOutput = Date.now()), (t.screen += drawn)),
  };
  return t satisfies PromptTarget & Record<string, unknown>;
}

let dir: string;
let file: string;
beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-durable-'));
  file = path.join(dir, 'control-journal.jsonl');
});
afterEach(() => {
  vi.useRealTimers();
  fs.rmSync(dir, { recursive: true, force: true });
});

function make(target = fakeTarget(), applyDelayMs = 0) {
  const acks: CmdAck[] = [];
  // vitest's fake timers stand behind the real clock and scheduler here.
  const inputs = new DurableInputs({ target, journal: new CommandJournal(file), ack: (a) => acks.push(a), log: () => undefined, clock: realClock, scheduler: realScheduler(), applyDelayMs });
  const input = (data: string, extra: Record<string, unknown> = {}) => ({ type: 'input' as const, data, durable: true, ...extra });
  return { target, acks, inputs, input, stages: () => acks.map((a) => a.stage) };
}

const journalKinds = () => fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l).kind);

describe('durable input', () => {
  it('is journaled before it is accepted, typed, Entered after the kind delay, then applied', () => {
    const { target, inputs, input, stages } = make();
    inputs.accept('p1', 'c1', input('hello', { submit: true }));
    expect(stages()).toEqual(['accepted']);
    expect(journalKinds()).toEqual(['accepted']);
    expect(target.written).toEqual(['hello']);
    vi.advanceTimersByTime(149);
    expect(target.written).toEqual(['hello']); // not a millisecond early
    vi.advanceTimersByTime(1);
    expect(target.written).toEqual(['hello', '\r']);
    expect(stages()).toEqual(['accepted', 'applied']);
    expect(journalKinds()).toEqual(['accepted', 'applied']);
    expect(inputs.status('p1')).toBe('applied');
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
  });

  it('with enterAfterEcho, the Enter waits for the program to echo the text (a starved TUI), but not for ever', () => {
    const target = fakeTarget();
    target.echo = true;
    const { inputs, input, stages } = make(target);
    inputs.accept('p1', 'c1', input('hello', { submit: true }));
    vi.advanceTimersByTime(600);
    expect(target.written).toEqual(['hello']); // no echo yet: no Enter, however long the kind's delay was
    target.print('> hello'); // the program read the text and drew it
    vi.advanceTimersByTime(20 + ENTER_AFTER_ECHO_MS - 1); // seen at the next look, then a key's worth of time for the program
    expect(target.written).toEqual(['hello']);
    vi.advanceTimersByTime(1);
    expect(target.written).toEqual(['hello', '\r']);
    expect(stages()).toEqual(['accepted', 'applied']);
    // A program that never echoes gets its Enter after ENTER_ECHO_WAIT_MS.
    inputs.accept('p2', 'c1', input('quiet', { submit: true }));
    vi.advanceTimersByTime(ENTER_ECHO_WAIT_MS - 30);
    expect(target.written).toEqual(['hello', '\r', 'quiet']);
    vi.advanceTimersByTime(60);
    expect(target.written).toEqual(['hello', '\r', 'quiet', '\r']);
  });

  it('output that is not the text is not its echo: a program busy starting draws, and reads the keys late', () => {
    // Gemini under load: it drew its start while the text waited, handled the text some 250 ms
    // later, and took an Enter that came right after it for part of a paste (a newline).
    const target = fakeTarget();
    target.echo = true;
    const { inputs, input } = make(target);
    inputs.accept('p1', 'c1', input('Say hello: lane check 1', { submit: true }));
    vi.advanceTimersByTime(10);
    target.print('Tips for getting started');
    vi.advanceTimersByTime(590);
    expect(target.written).toEqual(['Say hello: lane check 1']); // not at the kind's 150 ms: no echo yet
    target.print('> Say hello: lane check 1');
    vi.advanceTimersByTime(20 + ENTER_AFTER_ECHO_MS - 1);
    expect(target.written).toEqual(['Say hello: lane check 1']);
    vi.advanceTimersByTime(1);
    expect(target.written).toEqual(['Say hello: lane check 1', '\r']);
    // Several lines go in as a paste a TUI may draw as a summary: any output after them is their echo.
    inputs.accept('p2', 'c1', input('one\ntwo', { submit: true }));
    vi.advanceTimersByTime(10);
    target.print('[Pasted Text: 2 lines]');
    vi.advanceTimersByTime(140);
    expect(target.written.at(-1)).toBe('\r');
    expect(target.written).toHaveLength(4);
  });

  it('an echo before the kind delay does not bring the Enter forward', () => {
    const target = fakeTarget();
    target.echo = true;
    const { inputs, input } = make(target);
    inputs.accept('p1', 'c1', input('hello', { submit: true }));
    vi.advanceTimersByTime(10);
    target.print('> hello');
    vi.advanceTimersByTime(139);
    expect(target.written).toEqual(['hello']);
    vi.advanceTimersByTime(1);
    expect(target.written).toEqual(['hello', '\r']);
  });

  it('sends several lines as one bracketed paste only when the program asked for it', () => {
    const { target, inputs, input } = make();
    inputs.accept('a', 'c', input('one\ntwo'));
    target.paste = true;
    inputs.accept('b', 'c', input('one\ntwo'));
    inputs.accept('c', 'c', input('single line'));
    expect(target.written).toEqual(['one\ntwo', `${PASTE_START}one\ntwo${PASTE_END}`, 'single line']);
  });

  it('when-idle waits until the program has been quiet for quietMs, however long it keeps printing', () => {
    const { target, inputs, input, stages } = make();
    target.print();
    inputs.accept('q', 'c', input('later', { whenIdle: true, quietMs: 500 }));
    expect(stages()).toEqual(['accepted']);
    expect(inputs.unresolved()).toEqual([{ commandId: 'q', status: 'accepted' }]);
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(400);
      target.print(); // busy: a repaint every 400 ms
    }
    expect(target.written).toEqual([]);
    vi.advanceTimersByTime(499);
    expect(target.written).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(target.written).toEqual(['later']);
    expect(stages()).toEqual(['accepted', 'applied']);
    expect(inputs.unresolved()).toEqual([]);
  });

  it('when-idle without its own quiet period uses the default, and queued prompts go one per quiet period in order', () => {
    const { target, inputs, input } = make();
    target.print();
    inputs.accept('1', 'c', input('first', { whenIdle: true }));
    inputs.accept('2', 'c', input('second', { whenIdle: true }));
    vi.advanceTimersByTime(DEFAULT_QUIET_MS);
    expect(target.written).toEqual(['first']);
    target.print(); // the program answers the first prompt
    vi.advanceTimersByTime(DEFAULT_QUIET_MS - 1);
    expect(target.written).toEqual(['first']);
    vi.advanceTimersByTime(1);
    expect(target.written).toEqual(['first', 'second']);
  });

  it('a session that exits before the Enter fails the prompt: journaled failed, rejected session_exited, no Enter', () => {
    const { target, inputs, input, acks } = make();
    inputs.accept('x', 'c', input('text', { submit: true }));
    target.exited = true;
    inputs.sessionEnded();
    vi.advanceTimersByTime(1000);
    expect(target.written).toEqual(['text']);
    expect(acks.at(-1)).toMatchObject({ stage: 'rejected', code: 'session_exited' });
    expect(journalKinds()).toEqual(['accepted', 'failed']);
    expect(inputs.status('x')).toBe('failed');
  });

  it('refuses with journal_unavailable when the journal cannot be written, types nothing, and works again once it can', () => {
    fs.mkdirSync(file); // a directory where the file should be: every open fails
    const { target, inputs, input, acks } = make();
    expect(inputs.accept('j', 'c', input('secret'))).toBe(false);
    expect(acks).toEqual([expect.objectContaining({ commandId: 'j', stage: 'rejected', code: 'journal_unavailable' })]);
    expect(target.written).toEqual([]);
    expect(inputs.status('j')).toBeUndefined();
    fs.rmdirSync(file);
    expect(inputs.accept('k', 'c', input('ok'))).toBe(true);
    expect(target.written).toEqual(['ok']);
  });

  it('after a restart, accepted-but-never-applied is accepted_unknown and is not typed again', () => {
    const first = make(fakeTarget('gen-1'), 5000); // the test hook holds the fault window open
    first.inputs.accept('w', 'c', first.input('maybe', { submit: true }));
    first.inputs.accept('d', 'c', first.input('done'));
    vi.advanceTimersByTime(5000 + 150);
    first.inputs.accept('w2', 'c', first.input('held'));
    expect(first.target.written).toContain('maybe');
    // The runner dies here (no sessionEnded): 'w2' was accepted, never written.
    const second = make(fakeTarget('gen-2'));
    expect(second.inputs.status('w2')).toBe('accepted_unknown');
    expect(second.inputs.status('w')).toBe('applied');
    expect(second.inputs.unresolved()).toEqual([{ commandId: 'w2', status: 'accepted_unknown' }]);
    vi.advanceTimersByTime(60_000);
    expect(second.target.written).toEqual([]);
  });
});
