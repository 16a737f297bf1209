import { describe, expect, it } from 'vitest';
import {
  asChatRecord, blankCode, checkMaxHops, checkRoomName, checkSenderName, guardNote, LOOP_START, loopGuard,
  mentionsReader, parseMentions, pauseText, stepLoopGuard, type ChatKind, type ChatRecord,
} from '../../src/core/chat/chat.js';

const members = ['alice', 'Bob', 'alice2', 'carol.dev', 'dan-x'];

describe('parseMentions', () => {
  it.each<[string, string, string[]]>([
    ['plain', 'hi @alice', ['alice']],
    ['case-insensitive, in the member spelling', '@ALICE and @bob', ['alice', 'Bob']],
    ['order of first mention, once each', '@bob @alice @Bob @alice', ['Bob', 'alice']],
    ['non-members are not mentions', '@zed @alic', []],
    ['@all', 'ping @all', ['all']],
    ['@ALL too', '@All: standup', ['all']],
    ['at the start and after a newline', '@alice\n@bob', ['alice', 'Bob']],
    ['punctuation ends a name', '(@alice), @bob: @dan-x; @alice2!', ['alice', 'Bob', 'dan-x', 'alice2']],
    ['a full stop ends a name', 'thanks @alice.', ['alice']],
    ['a dotted member name', 'cc @carol.dev please', ['carol.dev']],
    ['a dotted name that is no member', '@alice.b', []],
    ['word boundary: @alice2 is not alice', '@alice2 only', ['alice2']],
    ['word boundary: a longer unknown name', '@alice3 @alice_x @alice-y', []],
    ['an @ inside a word is no mention', 'mail me at me@alice.dev or x@bob', []],
    ['@@alice is not a mention start either', 'x@@alice', []],
    ['inline code', 'not `@alice` but @bob', ['Bob']],
    ['double-backtick span holding a backtick', 'see ``a ` @alice`` and @bob', ['Bob']],
    ['an unmatched backtick is literal', 'a ` then @alice', ['alice']],
    ['a span closes only on a run of the same length', '`` @alice ` @bob ``, @dan-x', ['dan-x']],
    ['fenced block', '```\n@alice\n```\n@bob', ['Bob']],
    ['fenced block with a language and indent', '  ```ts\nconst x = "@alice";\n  ```\nok @bob', ['Bob']],
    ['an unclosed fence runs to the end', '@bob\n```\n@alice', ['Bob']],
    ['a longer closing fence closes', '```\n@alice\n`````\n@dan-x', ['dan-x']],
    ['a shorter closing fence does not', '````\n@alice\n```\n@bob', []],
    ['inline triple backticks mid-line are a span', 'x ```@alice``` @bob', ['Bob']],
  ])('%s', (_name, text, expected) => {
    expect(parseMentions(text, members)).toEqual(expected);
  });

  it('prefers the exact spelling when two members differ only by case', () => {
    expect(parseMentions('@bob', ['Bob', 'bob'])).toEqual(['bob']);
    expect(parseMentions('@BOB', ['Bob', 'bob'])).toHaveLength(1);
  });

  it('takes the longest member name that fits', () => {
    expect(parseMentions('@carol.dev', ['carol', 'carol.dev'])).toEqual(['carol.dev']);
    expect(parseMentions('@carol.', ['carol', 'carol.dev'])).toEqual(['carol']);
  });

  it('blankCode keeps length and newlines', () => {
    const text = 'a `b` c\n```\nd\n```\ne';
    const blank = blankCode(text);
    expect(blank).toHaveLength(text.length);
    expect(blank.split('\n')).toHaveLength(text.split('\n').length);
    expect(blank).toBe('a     c\n   \n \n   \ne');
  });
});

describe('names and settings', () => {
  it('room names follow the session-name rule', () => {
    for (const ok of ['default', 'lab', 'team-1', 'a.b_c']) expect(checkRoomName(ok)).toBeNull();
    for (const bad of ['', '.', '..', '../x', 'a/b', '-x', 'a b', 'x'.repeat(65)]) expect(checkRoomName(bad)).toMatch(/invalid room/);
  });

  it('a human display name may not be system or all', () => {
    expect(checkSenderName('ann')).toBeNull();
    expect(checkSenderName('System')).toMatch(/reserved/);
    expect(checkSenderName('all')).toMatch(/reserved/);
    expect(checkSenderName('a b')).toMatch(/invalid/);
  });

  it('max hops is 4 to 50', () => {
    for (const ok of [4, 30, 50]) expect(checkMaxHops(ok)).toBeNull();
    for (const bad of [3, 51, 0, 4.5, Number.NaN]) expect(checkMaxHops(bad)).toMatch(/4 to 50/);
  });

  it('asChatRecord takes records and refuses anything else', () => {
    const r = { id: 1, ts: 't', from: 'a', kind: 'agent', text: 'x', mentions: [] };
    expect(asChatRecord(r)).toEqual(r);
    expect(asChatRecord({ ...r, kind: 'system', event: 'pause' })).not.toBeNull();
    for (const bad of [null, 'x', { ...r, id: 0 }, { ...r, id: 1.5 }, { ...r, kind: 'robot' }, { ...r, mentions: [1] }, { ...r, event: 'stop' }, { ...r, text: undefined }]) {
      expect(asChatRecord(bad)).toBeNull();
    }
  });
});

let nextId = 1;
function rec(kind: ChatKind, text = 'x', extra: Partial<ChatRecord> = {}): ChatRecord {
  return { id: nextId++, ts: '2025-01-01T00:00:00.000Z', from: kind === 'human' ? 'ann' : kind === 'agent' ? 'alice' : 'system', kind, text, mentions: [], ...extra };
}
const A = () => rec('agent');
const H = (text = 'hi') => rec('human', text);
const PAUSE = () => rec('system', 'paused', { event: 'pause' });
const RESUME = () => rec('system', 'resumed', { event: 'resume' });
const times = (n: number, f: () => ChatRecord) => Array.from({ length: n }, f);

describe('loopGuard', () => {
  it.each<[string, ChatRecord[], number, { hops: number; paused: boolean }]>([
    ['an empty room', [], 30, { hops: 0, paused: false }],
    ['agents count', times(3, A), 30, { hops: 3, paused: false }],
    ['a human resets the count', [...times(5, A), H(), A()], 30, { hops: 1, paused: false }],
    ['a pause record pauses', [...times(4, A), PAUSE()], 30, { hops: 4, paused: true }],
    ['a human message does not lift a pause', [...times(4, A), PAUSE(), H()], 30, { hops: 0, paused: true }],
    ['a human /continue does', [...times(4, A), PAUSE(), H('/continue')], 30, { hops: 0, paused: false }],
    ['/continue with spaces around', [PAUSE(), H('  /continue \n')], 30, { hops: 0, paused: false }],
    ['/continue inside more text does not', [PAUSE(), H('/continue please')], 30, { hops: 0, paused: true }],
    ['an agent cannot /continue', [PAUSE(), rec('agent', '/continue')], 30, { hops: 1, paused: true }],
    ['a resume record resumes and restarts the count', [...times(6, A), PAUSE(), RESUME()], 30, { hops: 0, paused: false }],
    ['agents keep counting while paused', [PAUSE(), A(), A()], 30, { hops: 2, paused: true }],
    ['a system note without an event changes nothing', [A(), rec('system', 'note')], 30, { hops: 1, paused: false }],
    ['the count at maxHops counts as paused (maxHops lowered)', times(5, A), 4, { hops: 5, paused: true }],
    ['... until a human resets the count', [...times(5, A), H()], 4, { hops: 0, paused: false }],
  ])('%s', (_name, records, maxHops, expected) => {
    expect(loopGuard(records, maxHops)).toEqual(expected);
  });

  it('defaults to 30 hops', () => {
    expect(loopGuard(times(29, A)).paused).toBe(false);
    expect(loopGuard(times(30, A)).paused).toBe(true);
  });
});

describe('guardNote', () => {
  it('pauses at the agent message that reaches maxHops, once', () => {
    let s = LOOP_START;
    const notes: (string | null)[] = [];
    for (let i = 1; i <= 6; i++) {
      const r = A();
      const note = guardNote(s, r, 4);
      notes.push(note?.event ?? null);
      s = stepLoopGuard(s, r);
      if (note) s = stepLoopGuard(s, rec('system', note.text, { event: note.event }));
    }
    expect(notes).toEqual([null, null, null, 'pause', null, null]);
    expect(s).toEqual({ hops: 6, paused: true });
  });

  it('says how many and how to resume', () => {
    expect(guardNote({ hops: 29, paused: false }, A(), 30)).toEqual({ event: 'pause', text: pauseText(30) });
    expect(pauseText(30)).toBe('loop guard: 30 agent messages without a human; wakes paused. A human can resume with /continue (agent-board chat continue)');
  });

  it('pauses past maxHops when it was lowered', () => {
    expect(guardNote({ hops: 20, paused: false }, A(), 10)?.event).toBe('pause');
  });

  it('a human message never pauses, and resumes only a paused room with /continue', () => {
    expect(guardNote({ hops: 40, paused: false }, H(), 30)).toBeNull();
    expect(guardNote({ hops: 3, paused: true }, H('hello'), 30)).toBeNull();
    expect(guardNote({ hops: 3, paused: false }, H('/continue'), 30)).toBeNull();
    expect(guardNote({ hops: 3, paused: true }, rec('human', '/continue', { from: 'ann' }), 30)).toEqual({ event: 'resume', text: 'resumed by ann' });
    expect(guardNote({ hops: 3, paused: true }, rec('agent', '/continue'), 30)).toBeNull();
  });
});

describe('mentionsReader', () => {
  it('mentions of the reader or @all, not the reader\'s own posts', () => {
    expect(mentionsReader(rec('human', 'x', { mentions: ['Bob'] }), 'bob')).toBe(true);
    expect(mentionsReader(rec('human', 'x', { mentions: ['all'] }), 'bob')).toBe(true);
    expect(mentionsReader(rec('human', 'x', { mentions: ['alice'] }), 'bob')).toBe(false);
    expect(mentionsReader(rec('agent', 'x', { from: 'bob', mentions: ['all', 'bob'] }), 'bob')).toBe(false);
  });
});
