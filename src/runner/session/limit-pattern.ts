/**
 * A usage-limit detector made of a regular expression, for the tests that run real runners with
 * a fixture program of their own (AGENT_BOARD_TEST_LIMIT_RE, read by src/runner/main.ts): the
 * first screen line it matches is the limit, and its first group, when there is one, the seconds
 * until the reset ("LIMIT REACHED, resets in (\d+) s").
 */
import type { LimitDetector } from '../../core/usage/limit-state.js';

export function limitPattern(source: string): LimitDetector {
  const re = new RegExp(source);
  return (_kind, lines, now) => {
    for (const text of lines) {
      const m = re.exec(text);
      if (!m) continue;
      const s = m[1] === undefined ? NaN : Number(m[1]);
      return { line: text.trim(), resetAt: Number.isFinite(s) ? new Date(now + s * 1000).toISOString() : null };
    }
    return null;
  };
}
