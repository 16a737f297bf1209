// What a direct terminal skips of the output the echo relay's thread wrote already
// (src/runner/direct/echo-relay.ts ShownAhead): a count across chunks, however the chunker cut them.
import { describe, expect, it } from 'vitest';
import { ShownAhead } from '../../src/runner/direct/echo-relay.js';

const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

describe('ShownAhead', () => {
  it('skips exactly the bytes already written, across chunks, and nothing after them', () => {
    const a = new ShownAhead();
    a.add(5); // the thread wrote "abc" and the first two bytes of "€" (then the chunker held them)
    expect(text(a.rest('abc', Buffer.from('abc')))).toBe('');
    const euro = Buffer.from('€d');
    expect([...a.rest('€d', euro)]).toEqual([...euro.subarray(2)]);
    expect(a.none).toBe(true);
    expect(text(a.rest('next', Buffer.from('next')))).toBe('next');
  });

  it('writes a chunk that is not valid UTF-8 whole, as its text, and owes nothing after it', () => {
    const a = new ShownAhead();
    a.add(1);
    expect(text(a.rest('\ufffdA', null))).toBe('\ufffdA');
    expect(a.none).toBe(true);
  });

  it('starts over at nothing owed', () => {
    const a = new ShownAhead();
    a.add(3);
    a.reset();
    expect(text(a.rest('xyz', Buffer.from('xyz')))).toBe('xyz');
  });
});
