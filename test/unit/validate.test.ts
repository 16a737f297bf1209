import { describe, expect, it } from 'vitest';
import { validateClientMessage } from '../../src/core/protocol/validate.js';

const invalid = (v: unknown) => {
  const r = validateClientMessage(v);
  expect(r.ok, JSON.stringify(v)).toBe(false);
  return r.ok ? null : r;
};

describe('validateClientMessage', () => {
  describe('accepts every message type', () => {
    it.each([
      [{ type: 'hello', protocol: 1 }, { type: 'hello', protocol: 1 }],
      [{ type: 'hello', protocol: 1, client: 'cli', readOnly: true }, { type: 'hello', protocol: 1, client: 'cli', readOnly: true }],
      [{ type: 'hello', protocol: 2, readOnly: false }, { type: 'hello', protocol: 2, readOnly: false }], // version checked later, not here
      [{ type: 'subscribe_terminal' }, { type: 'subscribe_terminal' }],
      [{ type: 'subscribe_terminal', sinceSeq: 0, scrollback: 0 }, { type: 'subscribe_terminal', sinceSeq: 0, scrollback: 0 }],
      [{ type: 'subscribe_terminal', sinceSeq: 12345, scrollback: 1000 }, { type: 'subscribe_terminal', sinceSeq: 12345, scrollback: 1000 }],
      [{ type: 'input', data: '' }, { type: 'input', data: '' }],
      [{ type: 'input', data: 'ls\r\x1b[A😀' }, { type: 'input', data: 'ls\r\x1b[A😀' }],
      [{ type: 'resize', cols: 80, rows: 24 }, { type: 'resize', cols: 80, rows: 24 }],
      [{ type: 'resize', cols: 0, rows: 99999 }, { type: 'resize', cols: 0, rows: 99999 }], // clamped later
      [{ type: 'interrupt' }, { type: 'interrupt' }],
      [{ type: 'terminate' }, { type: 'terminate' }],
      [{ type: 'terminate', signal: 'SIGKILL' }, { type: 'terminate', signal: 'SIGKILL' }],
      [{ type: 'detach' }, { type: 'detach' }],
      [{ type: 'status' }, { type: 'status' }],
      [{ type: 'rename', name: 'api-2' }, { type: 'rename', name: 'api-2' }],
    ])('%j', (input, want) => {
      expect(validateClientMessage(input)).toEqual({ ok: true, message: want });
    });

    it('drops unknown extra fields rather than passing them on', () => {
      const r = validateClientMessage({ type: 'input', data: 'x', extra: 1, __proto__: { polluted: true } });
      expect(r).toEqual({ ok: true, message: { type: 'input', data: 'x' } });
      expect(r.ok && Object.keys(r.message)).toEqual(['type', 'data']);
    });

    it('works on values straight from JSON.parse (own __proto__ key is harmless)', () => {
      const r = validateClientMessage(JSON.parse('{"type":"status","__proto__":{"type":"input"}}'));
      expect(r).toEqual({ ok: true, message: { type: 'status' } });
    });
  });

  describe('rejects what is not a message object', () => {
    it.each([null, undefined, 42, 'hello', true, [], [{ type: 'status' }]])('%j', (v) => {
      expect(invalid(v)).toEqual({ ok: false, code: 'invalid_message', message: 'a message must be a JSON object' });
    });

    it.each([{}, { type: 1 }, { type: null }, { type: ['status'] }, { kind: 'status' }])('missing or non-string type: %j', (v) => {
      expect(invalid(v)).toMatchObject({ code: 'invalid_message', message: expect.stringContaining('"type"') });
    });
  });

  describe('rejects bad fields with invalid_message naming the field', () => {
    it.each([
      [{ type: 'hello' }, 'protocol'],
      [{ type: 'hello', protocol: '1' }, 'protocol'],
      [{ type: 'hello', protocol: 1.5 }, 'protocol'],
      [{ type: 'hello', protocol: null }, 'protocol'],
      [{ type: 'hello', protocol: 1, client: 7 }, 'client'],
      [{ type: 'hello', protocol: 1, client: null }, 'client'],
      [{ type: 'hello', protocol: 1, readOnly: 'yes' }, 'readOnly'],
      [{ type: 'hello', protocol: 1, readOnly: 1 }, 'readOnly'],
      [{ type: 'subscribe_terminal', sinceSeq: -1 }, 'sinceSeq'],
      [{ type: 'subscribe_terminal', sinceSeq: 1.5 }, 'sinceSeq'],
      [{ type: 'subscribe_terminal', sinceSeq: '3' }, 'sinceSeq'],
      [{ type: 'subscribe_terminal', sinceSeq: null }, 'sinceSeq'],
      [{ type: 'subscribe_terminal', scrollback: -5 }, 'scrollback'],
      [{ type: 'subscribe_terminal', scrollback: 0.5 }, 'scrollback'],
      [{ type: 'subscribe_terminal', scrollback: true }, 'scrollback'],
      [{ type: 'input' }, 'data'],
      [{ type: 'input', data: 42 }, 'data'],
      [{ type: 'input', data: ['a'] }, 'data'],
      [{ type: 'input', data: null }, 'data'],
      [{ type: 'resize', cols: 80 }, 'rows'],
      [{ type: 'resize', rows: 24 }, 'cols'],
      [{ type: 'resize', cols: '80', rows: 24 }, 'cols'],
      [{ type: 'resize', cols: 80.5, rows: 24 }, 'cols'],
      [{ type: 'resize', cols: 80, rows: null }, 'rows'],
      [{ type: 'terminate', signal: 9 }, 'signal'],
      [{ type: 'terminate', signal: null }, 'signal'],
      [{ type: 'rename' }, 'name'],
      [{ type: 'rename', name: 5 }, 'name'],
    ])('%j', (v, field) => {
      const r = invalid(v);
      expect(r!.code).toBe('invalid_message');
      expect(r!.message).toContain(`"${field}"`);
    });
  });

  describe('unknown types', () => {
    it('answers unknown_type with the type name', () => {
      expect(validateClientMessage({ type: 'fly' })).toEqual({ ok: false, code: 'unknown_type', message: 'unknown message type "fly"' });
      expect(invalid({ type: '' })).toMatchObject({ code: 'unknown_type' });
      // Only our own keys count: inherited names are unknown too.
      expect(invalid({ type: 'toString' })).toMatchObject({ code: 'unknown_type' });
      expect(invalid({ type: 'Hello', protocol: 1 })).toMatchObject({ code: 'unknown_type' }); // case matters
    });

    it('truncates a long type name to 64 characters in the message', () => {
      const long = 'x'.repeat(10_000);
      const r = invalid({ type: long })!;
      expect(r.code).toBe('unknown_type');
      expect(r.message).toBe(`unknown message type "${'x'.repeat(64)}"`);
    });
  });
});
