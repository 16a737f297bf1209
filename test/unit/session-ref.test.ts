import { describe, expect, it } from 'vitest';
import { checkSessionName, resolveSessionRef, type Named } from '../../src/core/session-ref.js';

const S = (id: string, name: string): Named => ({ id, name });
const sessions = [
  S('a1b2c3d4', 'api'),
  S('a1ff0000', 'Api-Tests'),
  S('beef0001', 'web'),
  S('c0ffee00', 'worker'),
  S('d00d0000', 'Docs'),
];

const pick = (ref: string, list: readonly Named[] = sessions) => {
  const r = resolveSessionRef(ref, list);
  return r.ok ? r.session.id : r.reason;
};

describe('resolveSessionRef', () => {
  it('finds by exact id', () => {
    expect(pick('beef0001')).toBe('beef0001');
  });

  it('finds by exact name', () => {
    expect(pick('web')).toBe('beef0001');
    expect(pick('api')).toBe('a1b2c3d4'); // even though "api" is also a prefix of "Api-Tests"
  });

  it('prefers an exact id over another session whose name equals it', () => {
    const list = [S('aaaa1111', 'bbbb2222'), S('bbbb2222', 'other')];
    expect(pick('bbbb2222', list)).toBe('bbbb2222');
  });

  it('finds by name ignoring case', () => {
    expect(pick('DOCS')).toBe('d00d0000');
    expect(pick('api-tests')).toBe('a1ff0000');
    expect(pick('API')).toBe('a1b2c3d4'); // case-insensitive exact beats being a prefix of Api-Tests
  });

  it('prefers the exact-case name when two names differ only in case', () => {
    const list = [S('11111111', 'Foo'), S('22222222', 'foo')];
    expect(pick('foo', list)).toBe('22222222');
    expect(pick('Foo', list)).toBe('11111111');
    const r = resolveSessionRef('FOO', list);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toBe('ambiguous');
  });

  it('finds by a unique id prefix', () => {
    expect(pick('bee')).toBe('beef0001');
    expect(pick('a1b')).toBe('a1b2c3d4');
  });

  it('finds by a unique name prefix, ignoring case', () => {
    expect(pick('wor')).toBe('c0ffee00');
    expect(pick('WE')).toBe('beef0001');
    expect(pick('api-')).toBe('a1ff0000');
  });

  it('reports an ambiguous ref with every candidate and lists them in the message', () => {
    const r = resolveSessionRef('a1', sessions);
    expect(r.ok).toBe(false);
    if (r.ok || r.reason !== 'ambiguous') throw new Error('expected ambiguous');
    expect(r.candidates.map((s) => s.id).sort()).toEqual(['a1b2c3d4', 'a1ff0000']);
    expect(r.message).toContain('"a1" matches 2 sessions');
    expect(r.message).toContain('api (a1b2c3d4)');
    expect(r.message).toContain('Api-Tests (a1ff0000)');
    expect(r.message).toMatch(/type more/);
  });

  it('counts a session matching by both id and name once', () => {
    const list = [S('abc00000', 'abc-one'), S('ffff0000', 'zzz')];
    expect(pick('ab', list)).toBe('abc00000');
  });

  it('is ambiguous when one session matches by id and another by name', () => {
    const list = [S('we000000', 'x'), S('ffff0000', 'web')];
    expect(pick('we', list)).toBe('ambiguous');
  });

  it('lists at most five candidates in the message but returns all', () => {
    const many = Array.from({ length: 8 }, (_, i) => S(`ab00000${i}`, `job-${i}`));
    const r = resolveSessionRef('job', many);
    if (r.ok || r.reason !== 'ambiguous') throw new Error('expected ambiguous');
    expect(r.candidates).toHaveLength(8);
    expect(r.message).toContain('matches 8 sessions');
    expect(r.message).toContain('job-4');
    expect(r.message).not.toContain('job-5');
  });

  it('reports an unknown ref', () => {
    const r = resolveSessionRef('nope', sessions);
    expect(r).toEqual({ ok: false, reason: 'unknown', message: 'no session "nope"; see the list with: agent-board ls' });
    expect(pick('anything', [])).toBe('unknown');
  });

  it('id prefixes are not matched in the middle of an id or name', () => {
    expect(pick('eef0')).toBe('unknown');
    expect(pick('orker')).toBe('unknown');
  });

  it('never resolves an empty or blank ref, even with a single session', () => {
    for (const ref of ['', '   ']) {
      for (const list of [sessions, [S('a1b2c3d4', 'only')]]) {
        const r = resolveSessionRef(ref, list);
        expect(r.ok, JSON.stringify(ref)).toBe(false);
        expect(!r.ok && r.reason).toBe('unknown');
        expect(!r.ok && r.message).toMatch(/no session/);
      }
    }
  });
});

describe('checkSessionName', () => {
  it.each(['a', 'A', '0', 'api', 'api-2', 'my_session.v2', 'x'.repeat(64), '9lives'])('accepts %j', (name) => {
    expect(checkSessionName(name)).toBeNull();
  });

  it.each(['', '-api', '.hidden', '_x', 'x'.repeat(65), 'has space', 'semi;colon', 'a/b', 'naïve', 'tab\t', 'new\nline', 'ünï'])(
    'refuses %j with a message saying what is allowed',
    (name) => {
      const msg = checkSessionName(name);
      expect(msg).toContain(`invalid name "${name}"`);
      expect(msg).toContain('1-64 letters, digits');
    },
  );
});
