import { describe, expect, it } from 'vitest';
import { dialogText } from '../../src/core/agents/dialog-text.js';
import { dialogLine, NOTICE_BODY_MAX, noticeText } from '../../src/core/board/notice-text.js';

const DIALOG = dialogText([' Bash command', '', '   rm -rf build', '', ' Do you want to proceed?', ' ❯ 1. Yes', '   2. No, and tell Claude what to do differently', '', ' Enter to confirm · Esc to cancel'])!;

describe('noticeText: what every channel says', () => {
  it('waiting: "<name> needs you", the question and its options on one line', () => {
    expect(noticeText({ name: 'api', to: 'waiting' }, { dialog: DIALOG, lastLine: 'Enter to confirm · Esc to cancel' })).toEqual({
      title: 'api needs you',
      body: 'Do you want to proceed? 1. Yes 2. No, and tell Claude what to do differently',
    });
  });

  it('waiting with no question read: its last line', () => {
    expect(noticeText({ name: 'api', to: 'waiting' }, { dialog: null, lastLine: 'Allow access? (y/n)' })).toEqual({ title: 'api needs you', body: 'Allow access? (y/n)' });
    expect(noticeText({ name: 'api', to: 'waiting' }, {})).toEqual({ title: 'api needs you', body: '' });
  });

  it('done: "<name> is done" and its last line, a dialog or not', () => {
    expect(noticeText({ name: 'web', to: 'idle' }, { dialog: DIALOG, lastLine: '  All   12 tests\tpassed ' })).toEqual({ title: 'web is done', body: 'All 12 tests passed' });
  });

  it('a long body is cut with an ellipsis', () => {
    const body = noticeText({ name: 'web', to: 'idle' }, { lastLine: 'x'.repeat(1000) }).body;
    expect(body).toHaveLength(NOTICE_BODY_MAX);
    expect(body.endsWith('…')).toBe(true);
  });

  it('dialogLine: options alone when no question was found', () => {
    expect(dialogLine({ question: '', options: [{ number: 1, label: 'Trust', selected: true }, { number: 2, label: 'Quit', selected: false }] })).toBe('1. Trust 2. Quit');
  });
});

describe('noticeText: a usage limit', () => {
  const now = Date.parse('2026-12-04T12:00:00Z');
  const hm = (ms: number) => [new Date(ms).getHours(), new Date(ms).getMinutes()].map((n) => String(n).padStart(2, '0')).join(':');

  it('says who hit it and until when, with the agent\'s words; a weekly one says its date', () => {
    const reset = now + 2 * 3600_000;
    const limited = { resetAt: new Date(reset).toISOString(), line: "You've hit your limit · resets 2pm", since: new Date(now).toISOString() };
    expect(noticeText({ name: 'api', to: 'limited' }, { limited, now })).toEqual({ title: 'api hit its usage limit', body: `until ${hm(reset)}: You've hit your limit · resets 2pm` });
    const week = now + 5 * 24 * 3600_000;
    const d = new Date(week);
    const date = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    expect(noticeText({ name: 'api', to: 'limited' }, { limited: { ...limited, resetAt: d.toISOString() }, now }).body).toMatch(new RegExp(`^until ${date} ${hm(week)}: `));
  });

  it('a limit with no reset said says so', () => {
    const limited = { resetAt: null, line: 'Quota exceeded', since: new Date(now).toISOString() };
    expect(noticeText({ name: 'g', to: 'limited' }, { limited, now })).toEqual({ title: 'g hit its usage limit', body: 'until it resets (it did not say when): Quota exceeded' });
  });
});
