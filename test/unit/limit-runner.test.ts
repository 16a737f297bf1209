/**
 * The runner's limit watch and resume-after-limit (src/runner/activity/limit-watch.ts,
 * src/runner/session/limit-resume.ts) on a fake clock: a limit seen once on the screen, over once
 * the agent works after its reset; the prompt typed once after the reset plus its delay, never
 * twice for one limit (the journal says so across runners), at most perDay times a day.
 */
import { describe, expect, it } from 'vitest';
import type { InputMsg } from '../../src/core/protocol/client-messages.js';
import type { CommandStatus } from '../../src/core/protocol/control-protocol.js';
import type { HostRecord, LimitResumeTry } from '../../src/core/protocol/host-record.js';
import { resumeCommandId, type LimitDetector } from '../../src/core/usage/limit-state.js';
import { LIMIT_CHECK_MS, LimitWatch } from '../../src/runner/activity/limit-watch.js';
import { LimitResume } from '../../src/runner/session/limit-resume.js';
import { limitPattern } from '../../src/runner/session/limit-pattern.js';
import { FakeTime } from '../helpers/fake-time.js';

type Rec = Pick<HostRecord, 'limited' | 'resumeAfterLimit' | 'limitResumes'>;
const iso = (ms: number) => new Date(ms).toISOString();
const detect: LimitDetector = limitPattern('LIMIT, resets in (\\d+) s');

function watchRig(time: FakeTime, rec: Rec = {}) {
  let screen: string[] = ['$ agent'];
  const writes: Array<Rec['limited']> = [];
  const log: string[] = [];
  const w = new LimitWatch({
    kind: () => 'claude',
    screenLines: () => screen,
    detect,
    record: () => rec,
    write: (l) => {
      rec.limited = l;
      writes.push(l);
    },
    clock: time,
    scheduler: time,
    log: (l) => log.push(l),
  });
  return { w, rec, writes, log, show: (lines: string[]) => ((screen = lines), w.output(), time.advance(LIMIT_CHECK_MS)) };
}

describe('the limit watch', () => {
  it('sees a limit once, with its reset fixed when first seen, though its words count down', () => {
    const time = new FakeTime(1_000_000);
    const r = watchRig(time);
    r.show(['hello', 'LIMIT, resets in 60 s']);
    expect(r.writes).toEqual([{ line: 'LIMIT, resets in 60 s', resetAt: iso(1_000_000 + LIMIT_CHECK_MS + 60_000), since: iso(1_000_000 + LIMIT_CHECK_MS) }]);
    time.advance(10_000);
    r.show(['hello', 'LIMIT, resets in 60 s', 'thinking']);
    // A new runner's program says the same limit again, in other words: the record's is kept.
    r.show(['LIMIT, resets in 49 s']);
    expect(r.writes).toHaveLength(1);
  });

  it('the same words printed again (a second line holds them) are a new sighting', () => {
    const time = new FakeTime();
    const r = watchRig(time, {});
    r.show(['LIMIT, resets in 60 s']);
    r.rec.limitResumes = [{ at: iso(time.now()), resetAt: r.rec.limited!.resetAt!, commandId: 'c' }];
    r.show(['LIMIT, resets in 60 s', '> continue', 'LIMIT, resets in 60 s']);
    expect(r.writes).toHaveLength(2);
  });

  it('is over when the agent works again after the reset, not before', () => {
    const time = new FakeTime();
    const r = watchRig(time);
    r.show(['LIMIT, resets in 30 s']);
    r.w.activityChanged('busy');
    expect(r.rec.limited).toBeDefined();
    time.advance(30_000);
    r.w.activityChanged('idle');
    expect(r.rec.limited).toBeDefined();
    r.w.activityChanged('busy');
    expect(r.rec.limited).toBeUndefined();
  });

  it('is over when its words leave the screen after the reset (Claude, busy all along), not before, nor for a runner that never saw them', () => {
    const time = new FakeTime();
    const r = watchRig(time);
    r.show(['LIMIT, resets in 30 s']);
    r.show(['> typed while limited']);
    expect(r.rec.limited, 'gone before the reset: still limited').toBeDefined();
    r.show(['LIMIT, resets in 30 s']);
    time.advance(30_000);
    r.show(['LIMIT, resets in 30 s', '> continue', 'an answer']);
    expect(r.rec.limited).toBeDefined();
    r.show(['> continue', 'an answer']);
    expect(r.rec.limited).toBeUndefined();
    // A revived runner: the record has the limit, its screen never showed it.
    const revived = watchRig(time, { limited: { resetAt: iso(time.now() - 1000), line: 'LIMIT', since: iso(time.now() - 60_000) } });
    revived.show(['$ agent', 'welcome back']);
    expect(revived.rec.limited).toBeDefined();
  });

  it('reads the screen at most once per LIMIT_CHECK_MS however much is printed', () => {
    const time = new FakeTime();
    let reads = 0;
    const w = new LimitWatch({ kind: () => 'x', screenLines: () => (reads++, []), detect, record: () => ({}), write: () => undefined, clock: time, scheduler: time, log: () => undefined });
    for (let i = 0; i < 100; i++) {
      w.output();
      time.advance(10);
    }
    expect(reads).toBe(2);
    w.dispose();
  });
});

function resumeRig(time: FakeTime, rec: Rec, journal = new Map<string, CommandStatus>(), budget: { held: string | null } = { held: null }, screen = { dialog: false }) {
  const typed: Array<{ id: string; msg: InputMsg }> = [];
  const log: string[] = [];
  const r = new LimitResume({
    record: () => rec,
    addTry: (t: LimitResumeTry) => (rec.limitResumes = [...(rec.limitResumes ?? []), t]),
    prompts: {
      status: (id) => journal.get(id),
      accept: (id, _client, msg) => {
        journal.set(id, 'accepted');
        typed.push({ id, msg });
        return true;
      },
    },
    exited: () => false,
    promptsHeld: () => budget.held,
    dialogShown: () => screen.dialog,
    delayMs: () => 7000,
    clock: time,
    scheduler: time,
    log: (l) => log.push(l),
  });
  return { r, typed, log, journal };
}

describe('resume after limit', () => {
  const T0 = 1_000_000;
  const limitedAt = (reset: number) => ({ resetAt: iso(reset), line: 'LIMIT', since: iso(T0) });

  it('a spent budget holds the prompt as it holds send: not typed, no try spent, typed once the budget allows', () => {
    const time = new FakeTime(T0);
    const rec: Rec = { limited: limitedAt(T0 + 60_000), resumeAfterLimit: { prompt: 'continue', perDay: 3 } };
    const budget = { held: 'api is over its budget ($5.20 of $5.00)' as string | null };
    const { r, typed, log } = resumeRig(time, rec, new Map(), budget);
    r.refresh();
    time.advance(60_000 + 7000 + 120_000);
    expect(typed).toEqual([]);
    expect(rec.limitResumes ?? []).toEqual([]);
    expect(log.some((l) => l.includes('over its budget'))).toBe(true);
    budget.held = null;
    time.advance(30_000);
    expect(typed).toHaveLength(1);
    expect(rec.limitResumes).toHaveLength(1);
    r.dispose();
  });

  it('a dialog on the screen holds the prompt (its Enter would answer the dialog): typed once the dialog is gone', () => {
    const time = new FakeTime(T0);
    const rec: Rec = { limited: limitedAt(T0 + 60_000), resumeAfterLimit: { prompt: 'continue', perDay: 3 } };
    const screen = { dialog: true };
    const { r, typed, log } = resumeRig(time, rec, new Map(), { held: null }, screen);
    r.refresh();
    time.advance(60_000 + 7000 + 60_000);
    expect(typed).toEqual([]);
    expect(rec.limitResumes ?? []).toEqual([]);
    expect(log.filter((l) => l.includes('shows a dialog'))).toHaveLength(1);
    screen.dialog = false;
    time.advance(2000);
    expect(typed.map((t) => t.msg.data)).toEqual(['continue']);
    expect(rec.limitResumes).toHaveLength(1);
    r.dispose();
  });

  it('types the prompt as a durable, submitted, when-idle prompt at the reset plus the delay, once', () => {
    const time = new FakeTime(T0);
    const rec: Rec = { limited: limitedAt(T0 + 60_000), resumeAfterLimit: { prompt: 'continue', perDay: 3 } };
    const { r, typed } = resumeRig(time, rec);
    r.refresh();
    time.advance(60_000 + 6999);
    expect(typed).toEqual([]);
    time.advance(1);
    expect(typed).toEqual([{ id: resumeCommandId({ resetAt: rec.limited!.resetAt!, since: rec.limited!.since }), msg: { type: 'input', data: 'continue', durable: true, submit: true, whenIdle: true } }]);
    expect(rec.limitResumes).toHaveLength(1);
    r.refresh();
    time.advance(3600_000);
    expect(typed).toHaveLength(1);
  });

  it('off, it types nothing; turned on while limited, it plans at once', () => {
    const time = new FakeTime(T0);
    const rec: Rec = { limited: limitedAt(T0 + 1000) };
    const { r, typed } = resumeRig(time, rec);
    r.refresh();
    time.advance(60_000);
    expect(typed).toEqual([]);
    rec.resumeAfterLimit = { prompt: 'go', perDay: 3 };
    r.refresh();
    time.advance(7000);
    expect(typed.map((t) => t.msg.data)).toEqual(['go']);
  });

  it('a prompt an earlier runner journaled is not typed again, and counts as the try', () => {
    const time = new FakeTime(T0);
    const rec: Rec = { limited: limitedAt(T0 + 1000), resumeAfterLimit: { prompt: 'continue', perDay: 3 } };
    const id = resumeCommandId({ resetAt: iso(T0 + 1000), since: iso(T0) });
    const journal = new Map<string, CommandStatus>([[id, 'accepted_unknown']]);
    const { r, typed } = resumeRig(time, rec, journal);
    r.refresh();
    time.advance(3600_000);
    expect(typed).toEqual([]);
    expect(rec.limitResumes).toEqual([{ at: iso(T0), resetAt: iso(T0 + 1000), commandId: id }]);
  });

  it('still limited after a try, it waits for the next reset; the day spent, it waits a day', () => {
    const time = new FakeTime(T0);
    const rec: Rec = { limited: limitedAt(T0 + 1000), resumeAfterLimit: { prompt: 'continue', perDay: 2 } };
    const { r, typed, log } = resumeRig(time, rec);
    r.refresh();
    time.advance(8000);
    expect(typed).toHaveLength(1);
    // The agent says the limit again (its answer to the prompt, a moment later): the next reset an hour on.
    time.advance(1000);
    rec.limited = { resetAt: iso(time.now() + 3600_000), line: 'LIMIT', since: iso(time.now()) };
    r.refresh();
    time.advance(3600_000 + 7000);
    expect(typed).toHaveLength(2);
    time.advance(1000);
    rec.limited = { resetAt: iso(time.now() + 60_000), line: 'LIMIT', since: iso(time.now()) };
    r.refresh();
    time.advance(60_000 + 7000 + 3600_000);
    expect(typed).toHaveLength(2);
    // The first try is a day old at T0 + 8000 + 24 h.
    time.advance(T0 + 8000 + 24 * 3600_000 - time.now());
    expect(typed).toHaveLength(3);
    expect(log.some((l) => /every try of the day is spent/.test(l))).toBe(true);
  });
});
