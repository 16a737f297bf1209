import { describe, expect, it } from 'vitest';
import { validateClientMessage } from '../../src/core/protocol/validate.js';

const direct = { path: '/dev/pts/3', pid: 1234, startTime: '98765', fd: 1, bootId: '0c412a3d-726f-48e7-bcc8-ef244ebfc0b2', altScreen: false, cut: false };

describe('subscribe_terminal with a direct-output request', () => {
  it('keeps a well-formed request, field for field (extra fields dropped)', () => {
    const v = validateClientMessage({ type: 'subscribe_terminal', cols: 80, rows: 24, direct: { ...direct, extra: 1 } });
    expect(v).toEqual({ ok: true, message: { type: 'subscribe_terminal', sinceSeq: undefined, scrollback: undefined, cols: 80, rows: 24, direct } });
  });

  it('has no direct field when none was asked for', () => {
    const v = validateClientMessage({ type: 'subscribe_terminal' });
    expect(v.ok && 'direct' in v.message).toBe(false);
  });

  it.each([
    ['not an object', 'yes'],
    ['no path', { ...direct, path: undefined }],
    ['an empty path', { ...direct, path: '' }],
    ['a long path', { ...direct, path: '/dev/pts/' + '1'.repeat(80) }],
    ['a pid of 0', { ...direct, pid: 0 }],
    ['a fractional pid', { ...direct, pid: 1.5 }],
    ['a start time that is not digits', { ...direct, startTime: '12a' }],
    ['a negative fd', { ...direct, fd: -1 }],
    ['no boot id', { ...direct, bootId: undefined }],
    ['altScreen not a boolean', { ...direct, altScreen: 'no' }],
    ['no cut', { ...direct, cut: undefined }],
  ])('refuses %s', (_what, bad) => {
    const v = validateClientMessage({ type: 'subscribe_terminal', direct: bad });
    expect(v).toMatchObject({ ok: false, code: 'invalid_message' });
  });
});
