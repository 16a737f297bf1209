/** The limited state's pure parts (src/core/usage/limit-state.ts): the countdown, the tries per day, the resume plan. */
import { describe, expect, it } from 'vitest';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import { sessionState } from '../../src/core/session-state.js';
import {
  countdownTickMs,
  limitCountdown,
  limitedLabel,
  RESUME_DAY_MS,
  resumeCommandId,
  resumePlan,
  sameLimit,
  triesLeft,
} from '../../src/core/usage/limit-state.js';

const T0 = Date.parse('2026-12-04T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const H = 3600_000;

describe('the countdown', () => {
  it('says hours and minutes, minutes, then seconds, and "reset" once passed', () => {
    const at = iso(T0 + 2 * H + 13 * 60_000);
    expect(limitCountdown(at, T0)).toBe('2h13m');
    expect(limitedLabel({ resetAt: at }, T0)).toBe('limited · 2h13m');
    expect(limitCountdown(iso(T0 + 5 * H), T0)).toBe('5h00m');
    expect(limitCountdown(iso(T0 + 59 * 60_000 + 1), T0)).toBe('1h00m');
    expect(limitCountdown(iso(T0 + 4 * 60_000 + 10_000), T0)).toBe('5m');
    expect(limitCountdown(iso(T0 + 45_000), T0)).toBe('45s');
    expect(limitCountdown(iso(T0 + 400), T0)).toBe('1s');
    expect(limitCountdown(iso(T0), T0)).toBe('reset');
    expect(limitCountdown(iso(T0 - 60_000), T0)).toBe('reset');
    expect(limitedLabel({ resetAt: null }, T0)).toBe('limited');
  });

  it('moves each second in its last minute, else each minute; not at all with nothing ahead', () => {
    expect(countdownTickMs([iso(T0 + H)], T0)).toBe(60_000);
    expect(countdownTickMs([iso(T0 + H), iso(T0 + 30_000)], T0)).toBe(1000);
    expect(countdownTickMs([null, undefined, iso(T0 - 1000)], T0)).toBeNull();
  });

  it('a running session with a limit is limited whatever its activity; an exited one is exited', () => {
    const limited = { resetAt: iso(T0 + H), line: 'limit', since: iso(T0) };
    expect(sessionState({ status: 'running', activity: 'idle', limited })).toBe('limited');
    expect(sessionState({ status: 'running', activity: 'waiting', limited })).toBe('limited');
    expect(sessionState({ status: 'exited', activity: 'idle', limited })).toBe('exited');
    expect(sessionState({ status: 'running', activity: 'idle' })).toBe('idle');
  });
});

type Rec = Pick<HostRecord, 'limited' | 'resumeAfterLimit' | 'limitResumes'>;
const resetAt = iso(T0 + H);
const rec = (over: Partial<Rec> = {}): Rec => ({
  limited: { resetAt, line: 'limit reached', since: iso(T0) },
  resumeAfterLimit: { prompt: 'continue', perDay: 3 },
  ...over,
});

describe('the resume plan', () => {
  it('types the prompt at the reset plus the delay, under an id made from the reset', () => {
    const since = iso(T0);
    expect(resumePlan(rec(), T0, 12_345)).toEqual({ kind: 'type', at: T0 + H + 12_345, commandId: resumeCommandId({ resetAt, since }), prompt: 'continue' });
    expect(resumeCommandId({ resetAt, since })).toBe(resumeCommandId({ resetAt: iso(T0 + H + 300), since }));
    expect(resumeCommandId({ resetAt, since })).not.toBe(resumeCommandId({ resetAt, since: iso(T0 + H + 9000) }));
  });

  it('a reset named to the minute ("resets 10:03 PM") is typed after that minute ends, not at its start', () => {
    // Codex said "try again at 1:00 PM" for a limit that resets at 13:00:58: at 13:00:00 the prompt would be refused.
    const minute = rec({ limited: { resetAt, resetToMinute: true, line: 'try again at 1:00 PM', since: iso(T0) } });
    expect(resumePlan(minute, T0, 1500)).toMatchObject({ kind: 'type', at: T0 + H + 60_000 + 1500 });
    // Seen after the minute began (the screen still names it): still the end of the minute, not at once.
    expect(resumePlan(minute, T0 + H + 17_000, 0)).toMatchObject({ kind: 'type', at: T0 + H + 60_000 });
  });

  it('does nothing when off, when not limited, with no reset said, or once tried after this limit', () => {
    expect(resumePlan(rec({ resumeAfterLimit: undefined }), T0, 0).kind).toBe('none');
    expect(resumePlan(rec({ limited: undefined }), T0, 0).kind).toBe('none');
    expect(resumePlan(rec({ limited: { resetAt: null, line: 'x', since: iso(T0) } }), T0, 0).kind).toBe('none');
    const tried = [{ at: iso(T0 + H + 5000), resetAt, commandId: 'c' }];
    expect(resumePlan(rec({ limitResumes: tried }), T0 + H + 6000, 0)).toMatchObject({ kind: 'none', why: expect.stringMatching(/next one/) });
    // A limit said again after the try: a new one, planned, even when it resets about when the last did.
    const next = iso(T0 + 6 * H);
    expect(resumePlan(rec({ limited: { resetAt: next, line: 'x', since: iso(T0 + H + 9000) }, limitResumes: tried }), T0 + H + 9000, 0)).toMatchObject({ kind: 'type', at: Date.parse(next) });
    expect(resumePlan(rec({ limited: { resetAt: iso(T0 + H + 60_000), line: 'x', since: iso(T0 + H + 9000) }, limitResumes: tried }), T0 + H + 9000, 0).kind).toBe('type');
  });

  it('at most perDay tries in the last 24 hours: the next waits until the oldest is a day old', () => {
    const tries = [1, 2, 3].map((h) => ({ at: iso(T0 - 20 * H + h * H), resetAt: iso(T0 - 20 * H + h * H - 1000), commandId: `c${h}` }));
    const r = rec({ limitResumes: tries });
    expect(triesLeft(r, T0)).toBe(0);
    expect(resumePlan(r, T0, 500)).toEqual({ kind: 'spent', at: Date.parse(tries[0]!.at) + RESUME_DAY_MS });
    expect(triesLeft(r, Date.parse(tries[0]!.at) + RESUME_DAY_MS)).toBe(1);
    expect(resumePlan(r, Date.parse(tries[0]!.at) + RESUME_DAY_MS, 500).kind).toBe('type');
    expect(triesLeft(rec({ limitResumes: tries.slice(0, 1) }), T0)).toBe(2);
    expect(triesLeft(rec({ resumeAfterLimit: { prompt: 'go', perDay: 1 }, limitResumes: tries.slice(0, 1) }), T0)).toBe(0);
  });

  it('the same limit said again is kept, unless a try came after it', () => {
    const cur = { resetAt, line: 'LIMIT, resets in 60 s', since: iso(T0) };
    expect(sameLimit(cur, { resetAt: iso(T0 + H + 30_000), line: 'LIMIT, resets in 29 s' }, [])).toBe(true);
    expect(sameLimit(cur, { resetAt: iso(T0 + 2 * H), line: 'LIMIT' }, [])).toBe(false);
    expect(sameLimit(cur, { resetAt: iso(T0 + H + 30_000), line: 'x' }, [{ at: iso(T0 + H), resetAt, commandId: 'c' }])).toBe(false);
  });
});

describe('explain of a limit', () => {
  it('says the words, when seen, when it resets, and resume-after-limit with the tries left today', async () => {
    const { limitLines } = await import('../../src/core/agents/explain-text.js');
    const r = rec({ limitResumes: [{ at: iso(T0 - H), resetAt: iso(T0 - 2 * H), commandId: 'c' }] });
    const lines = limitLines(r, T0 + 60_000);
    expect(lines[0]![0]).toBe('limit');
    expect(lines[0]![1]).toMatch(/^"limit reached" seen \d\d:\d\d:\d\d \(1m ago\); resets \d\d:\d\d \(in 59m\)$/);
    expect(lines[1]).toEqual(['resume', 'on: types "continue" once a limit resets; 2 of 3 tries left today']);
    expect(limitLines(rec({ resumeAfterLimit: undefined }), T0 + 2 * H)[1]).toEqual(['resume', "off: it waits for you (new --resume-after-limit, or the board's L)"]);
    expect(limitLines(rec({ resumeAfterLimit: undefined }), T0 + 2 * H)[0]![1]).toMatch(/passed: limited until it works again/);
    expect(limitLines({}, T0)).toEqual([]);
  });
});
