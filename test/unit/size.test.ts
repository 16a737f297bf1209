import { describe, expect, it } from 'vitest';
import { MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS } from '../../src/core/protocol/protocol.js';
import { clampSize, DEFAULT_COLS, DEFAULT_ROWS } from '../../src/core/protocol/size.js';

describe('clampSize', () => {
  it('passes a size inside the limits through', () => {
    expect(clampSize(80, 24)).toEqual({ cols: 80, rows: 24 });
    expect(clampSize(MIN_COLS, MIN_ROWS)).toEqual({ cols: MIN_COLS, rows: MIN_ROWS });
    expect(clampSize(MAX_COLS, MAX_ROWS)).toEqual({ cols: MAX_COLS, rows: MAX_ROWS });
  });

  it('raises a too-small size to the minimum, each side on its own', () => {
    expect(clampSize(0, 0)).toEqual({ cols: MIN_COLS, rows: MIN_ROWS });
    expect(clampSize(-5, 24)).toEqual({ cols: MIN_COLS, rows: 24 });
    expect(clampSize(80, -1)).toEqual({ cols: 80, rows: MIN_ROWS });
  });

  it('lowers a too-large size to the maximum, each side on its own', () => {
    expect(clampSize(MAX_COLS + 1, 24)).toEqual({ cols: MAX_COLS, rows: 24 });
    expect(clampSize(80, 1e9)).toEqual({ cols: 80, rows: MAX_ROWS });
    expect(clampSize(Infinity, -Infinity)).toEqual({ cols: MAX_COLS, rows: MIN_ROWS });
  });

  it('makes fractional sizes whole', () => {
    expect(clampSize(80.9, 24.2)).toEqual({ cols: 80, rows: 24 });
    expect(clampSize(1.5, 0.5)).toEqual({ cols: MIN_COLS, rows: MIN_ROWS });
  });

  it('never returns NaN: a size that is not a number gets the default', () => {
    expect(clampSize(Number.NaN, Number.NaN)).toEqual({ cols: DEFAULT_COLS, rows: DEFAULT_ROWS });
    expect(clampSize(Number.NaN, 30)).toEqual({ cols: DEFAULT_COLS, rows: 30 });
    const s = clampSize(DEFAULT_COLS, DEFAULT_ROWS);
    expect(s).toEqual({ cols: DEFAULT_COLS, rows: DEFAULT_ROWS }); // the default itself is in range
  });
});
