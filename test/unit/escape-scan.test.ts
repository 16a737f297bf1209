import { describe, expect, it } from 'vitest';
import { scanEscapes, type ScanState } from '../../src/core/terminal/escape-scan.js';

const after = (...chunks: string[]): ScanState => chunks.reduce<ScanState>((st, c) => scanEscapes(st, c), 'ground');

describe('scanEscapes', () => {
  it('text and whole sequences end at ground', () => {
    expect(after('hello, wörld ✓')).toBe('ground');
    expect(after('\x1b[1;31mred\x1b[0m')).toBe('ground');
    expect(after('\x1b]0;a title\x07')).toBe('ground');
    expect(after('\x1b]8;;https://x.y\x1b\\link\x1b]8;;\x1b\\')).toBe('ground');
    expect(after('\x1bPq#0;2;0;0;0\x1b\\')).toBe('ground'); // DCS (sixel)
    expect(after('\x1b(B\x1b7\x1b8\x1bM')).toBe('ground');
    expect(after('\x1b[?2026h', 'frame', '\x1b[?2026l')).toBe('ground');
    expect(after('\r\n\x07\t')).toBe('ground');
  });

  it('knows when a write stops inside a sequence', () => {
    expect(after('text\x1b')).toBe('esc');
    expect(after('\x1b[1;3')).toBe('csi');
    expect(after('\x1b[?')).toBe('csi');
    expect(after('\x1b]0;half a ti')).toBe('string');
    expect(after('\x1b]0;title\x1b')).toBe('string-esc');
    expect(after('\x1b(')).toBe('esc-inter');
    expect(after('\x1b_apc')).toBe('string');
  });

  it('follows a sequence cut across writes', () => {
    expect(after('\x1b[3', '8;5;20', '8m')).toBe('ground');
    expect(after('\x1b]0;ti', 'tle', '\x07')).toBe('ground');
    expect(after('\x1b]0;title\x1b', '\\')).toBe('ground');
    expect(after('\x1b', '[', 'H')).toBe('ground');
  });

  it('an ESC inside a string ends it and opens what follows; CAN and SUB cancel', () => {
    expect(after('\x1b]0;t\x1b[1')).toBe('csi');
    expect(after('\x1b]0;t\x1b[1m')).toBe('ground');
    expect(after('\x1b[1;2\x18')).toBe('ground');
    expect(after('\x1b]0;x\x1a')).toBe('ground');
  });

  it('understands the 8-bit CSI and OSC', () => {
    expect(after('\x9b1')).toBe('csi');
    expect(after('\x9b1m')).toBe('ground');
    expect(after('\x9d0;t')).toBe('string');
    expect(after('\x9d0;t\x9c')).toBe('ground');
  });
});
