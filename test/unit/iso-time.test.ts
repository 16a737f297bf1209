/** isoTime, the runner's time stamps without V8's Date formatting (which loads ICU data): equal to toISOString. */
import { describe, expect, it } from 'vitest';
import { isoTime } from '../../src/core/iso-time.js';
import { mulberry32 } from '../helpers/rng.js';

describe('isoTime', () => {
  it('equals Date#toISOString at the edges and at 100,000 random times from year 0 to 9999', () => {
    const edges = [0, -1, 1, 951_782_400_000, 951_868_799_999, 4_107_542_400_000, Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(2100, 2, 1), -62_167_219_200_000, 253_402_300_799_999];
    for (const ms of edges) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    const rand = mulberry32(13);
    const lo = -62_167_219_200_000; // 0000-01-01
    const hi = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z
    for (let i = 0; i < 100_000; i++) {
      const ms = Math.floor(lo + rand() * (hi - lo));
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }
  });
});
