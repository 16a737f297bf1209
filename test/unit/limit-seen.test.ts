/**
 * The usage-limit detectors (src/core/usage/limits) on the screens the real CLIs showed when the
 * lane's mocks answered with a limit (test/fixtures/limits: captured with `agent-board peek`, TZ
 * Europe/Paris), and on screens where an agent only talks about limits (the captured screens with
 * the answer's words replaced), which must not read as limited.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { limitSeen } from '../../src/core/usage/limits/index.js';
import { nextClockTime, parseClock, parseDateTime, parseDuration, parseZone } from '../../src/core/usage/limits/limit-time.js';
import { ROOT } from '../helpers/home.js';

const screen = (name: string) => fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'limits', `${name}.txt`), 'utf8').split('\n');
const PARIS = 'Europe/Paris';
const at = (iso: string) => Date.parse(iso);

describe('limitSeen on the real CLIs\' screens', () => {
  it('Claude on a plan: the 5-hour limit and its reset in the zone it names', () => {
    // The mock's reset was 23:28:45Z; Claude shows whole minutes: 12:28am in Paris.
    const seen = limitSeen('claude', screen('claude-plan-limit'), at('2026-12-04T21:29:00Z'), 'UTC');
    expect(seen).toEqual({ resetAt: '2026-12-04T23:28:00.000Z', resetToMinute: true, line: "You've hit your 5-hour limit · resets 12:28am (Europe/Paris)" });
  });

  it('Claude on a plan: its status under the input box when the transcript line is gone', () => {
    const rows = screen('claude-plan-limit').filter((r) => !r.includes('⎿'));
    const seen = limitSeen('claude', rows, at('2026-12-04T21:29:00Z'), PARIS);
    expect(seen).toEqual({ resetAt: '2026-12-04T23:28:00.000Z', resetToMinute: true, line: 'Usage limit reached · limit resets 12:28am' });
  });

  it('Claude on a plan, the weekly limit: a date more than a day ahead, its dialog in place of the input box', () => {
    const seen = limitSeen('claude', screen('claude-weekly-limit-dialog'), at('2026-12-04T21:41:30Z'), 'UTC');
    expect(seen).toEqual({ resetAt: '2026-12-06T03:41:00.000Z', resetToMinute: true, line: "You've hit your weekly limit · resets Dec 6, 4:41am (Europe/Paris)" });
  });

  it('Claude on a plan: a line a narrow terminal wrapped is read whole', () => {
    const rows = screen('claude-plan-limit').flatMap((r) =>
      r.includes('⎿') ? ["  ⎿  You've hit your weekly limit · resets Dec 6, 3:30pm", '     (America/Los_Angeles)'] : [r],
    );
    const seen = limitSeen('claude', rows, at('2026-12-04T21:29:00Z'), PARIS);
    expect(seen).toEqual({ resetAt: '2026-12-06T23:30:00.000Z', resetToMinute: true, line: "You've hit your weekly limit · resets Dec 6, 3:30pm (America/Los_Angeles)" });
  });

  it('Claude with an API key: the 429 is a limit with no reset time', () => {
    const seen = limitSeen('claude', screen('claude-api-key-429'), at('2026-12-04T21:29:00Z'), PARIS);
    expect(seen).toEqual({ resetAt: null, line: "API Error: Request rejected (429) · This request would exceed your account's rate limit. Please try again later." });
  });

  it('Codex: its error block, wrapped over three rows, with a date in its local zone', () => {
    const seen = limitSeen('codex', screen('codex-limit'), at('2026-12-04T21:27:30Z'), PARIS);
    expect(seen?.resetAt).toBe('2026-12-04T23:27:00.000Z');
    expect(seen?.resetToMinute, 'a clock time: the reset is within that minute').toBe(true);
    expect(seen?.line).toBe(
      'You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro), visit https://chatgpt.com/settings/usage to purchase more credits or try again at Dec 5th, 2026 12:27 AM.',
    );
  });

  it('Gemini: the box with the reset in the short zone name it prints', () => {
    const seen = limitSeen('gemini', screen('gemini-limit'), at('2026-12-04T21:27:40Z'), 'UTC');
    expect(seen).toEqual({ resetAt: '2026-12-04T23:27:00.000Z', resetToMinute: true, line: 'Usage limit reached for gemini-3.8-flash. Access resets at 12:27 AM GMT+1.' });
  });

  it('Gemini, a daily quota: the same dialog with no reset', () => {
    const seen = limitSeen('gemini', screen('gemini-daily-quota'), at('2026-12-04T21:50:00Z'), PARIS);
    expect(seen).toEqual({ resetAt: null, line: 'Usage limit reached for gemini-3.8-flash.' });
  });

  it('pi: the last error after its retries; the wait counts from now', () => {
    const now = at('2026-12-04T21:27:45Z');
    const seen = limitSeen('pi', screen('pi-limit'), now);
    expect(seen?.resetAt).toBe(new Date(now + (3600 + 59 * 60 + 41) * 1000).toISOString());
    expect(seen?.resetToMinute, 'a wait to the second').toBeUndefined();
    expect(seen?.line).toMatch(/^Error: Retry failed after 3 attempts: 429 Rate limit reached .* Please try again in 1h59m41s\./);
  });

  it('pi still retrying (its spinner below the error) is not limited yet', () => {
    expect(limitSeen('pi', screen('pi-retrying'), at('2026-12-04T21:27:35Z'))).toBeNull();
  });

  it.each(['claude', 'codex', 'gemini', 'pi'])('%s explaining limits in its answer is not limited', (kind) => {
    expect(limitSeen(kind, screen(`${kind}-explains-limits`), at('2026-12-04T21:29:00Z'), PARIS)).toBeNull();
  });

  it('Codex, a reset the same day: the time alone, in its local zone', () => {
    const seen = limitSeen('codex', screen('codex-limit-same-day'), at('2026-12-04T21:35:30Z'), PARIS);
    expect(seen?.resetAt).toBe('2026-12-04T21:36:00.000Z');
    expect(seen?.line).toMatch(/try again at 10:36 PM\.$/);
  });

  it('Claude past the reset, still waiting to continue by itself: limited, the reset just past', () => {
    const seen = limitSeen('claude', screen('claude-continuing-shortly'), at('2026-12-04T21:37:30Z'), 'UTC');
    expect(seen).toEqual({ resetAt: '2026-12-04T21:36:00.000Z', resetToMinute: true, line: "You've hit your 5-hour limit · resets 10:36pm (Europe/Paris)" });
  });

  it('after the reset, once the agent answered again, it is no longer limited (Gemini kept trying; pi was told to continue)', () => {
    expect(limitSeen('gemini', screen('gemini-kept-trying'), at('2026-12-04T21:37:30Z'), PARIS)).toBeNull();
    expect(limitSeen('pi', screen('pi-continued'), at('2026-12-04T21:37:30Z'))).toBeNull();
  });

  it('Gemini retrying a short wait by itself (under 300 s) shows no limit', () => {
    expect(limitSeen('gemini', screen('gemini-short-wait-retrying'), at('2026-12-04T21:35:45Z'), PARIS)).toBeNull();
  });

  it('a limit the user has since continued past is history', () => {
    expect(limitSeen('claude', screen('claude-limit-then-continued'), at('2026-12-04T23:40:00Z'), PARIS)).toBeNull();
  });

  it('a kind with no detector, and a screen of one kind read as another, see no limit', () => {
    expect(limitSeen('shell', screen('claude-plan-limit'), 0)).toBeNull();
    expect(limitSeen('codex', screen('gemini-limit'), 0)).toBeNull();
    expect(limitSeen('toString', [], 0)).toBeNull();
  });
});

describe('reset times from words', () => {
  it('clock times', () => {
    expect(parseClock('3pm')).toEqual({ hour: 15, minute: 0 });
    expect(parseClock('12:28am')).toEqual({ hour: 0, minute: 28 });
    expect(parseClock('12:05 PM')).toEqual({ hour: 12, minute: 5 });
    expect(parseClock('15:30')).toEqual({ hour: 15, minute: 30 });
    expect(parseClock('15')).toBeNull();
    expect(parseClock('13pm')).toBeNull();
  });

  it('the next such time within a day, in the zone, across midnight and a DST change', () => {
    const paris = parseZone('Europe/Paris')!;
    // 22:00 in Paris on 4 Dec: 3pm is tomorrow's, 11:30pm today's.
    expect(new Date(nextClockTime(at('2026-12-04T21:00:00Z'), { hour: 15, minute: 0 }, paris)).toISOString()).toBe('2026-12-05T14:00:00.000Z');
    expect(new Date(nextClockTime(at('2026-12-04T21:00:00Z'), { hour: 23, minute: 30 }, paris)).toISOString()).toBe('2026-12-04T22:30:00.000Z');
    // Read five minutes after the reset: just past, not tomorrow.
    expect(new Date(nextClockTime(at('2026-12-04T22:35:00Z'), { hour: 23, minute: 30 }, paris)).toISOString()).toBe('2026-12-04T22:30:00.000Z');
    // Paris moves to summer time on 29 March 2026: 3am that day is UTC+2.
    expect(new Date(nextClockTime(at('2026-03-29T00:30:00Z'), { hour: 3, minute: 0 }, paris)).toISOString()).toBe('2026-03-29T01:00:00.000Z');
  });

  it('zones as the CLIs name them', () => {
    expect(parseZone('GMT+1')).toEqual({ offsetMinutes: 60 });
    expect(parseZone('UTC-05:30')).toEqual({ offsetMinutes: -330 });
    expect(parseZone('PST')).toEqual({ offsetMinutes: -480 });
    expect(parseZone('America/New_York')).toEqual({ iana: 'America/New_York' });
    expect(parseZone('Mars/Olympus')).toBeNull();
  });

  it('dates', () => {
    const utc = parseZone('UTC')!;
    expect(new Date(parseDateTime('Dec 5th, 2026 12:27 AM', utc, 0)!).toISOString()).toBe('2026-12-05T00:27:00.000Z');
    expect(new Date(parseDateTime('Dec 6, 3pm', utc, at('2026-12-04T21:00:00Z'))!).toISOString()).toBe('2026-12-06T15:00:00.000Z');
    expect(new Date(parseDateTime('Jan 2, 9:30am', utc, at('2026-12-30T21:00:00Z'))!).toISOString()).toBe('2027-01-02T09:30:00.000Z');
  });

  it('durations', () => {
    expect(parseDuration('1h59m41s')).toBe((3600 + 59 * 60 + 41) * 1000);
    expect(parseDuration('2 hours 5 minutes')).toBe((2 * 60 + 5) * 60_000);
    expect(parseDuration('6m0.5s')).toBe(360_500);
    expect(parseDuration('1 day, 3 hours')).toBe(27 * 3_600_000);
    expect(parseDuration('soon')).toBeNull();
    expect(parseDuration('2 hours or later')).toBeNull();
  });
});
