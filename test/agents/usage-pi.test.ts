/**
 * pi's usage read back from its session file (test/agents/usage-suite.ts), and the cost pi itself
 * recorded beside each answer's tokens, from the price its models.json gives the mock's model.
 */
import { expect } from 'vitest';
import { PI_MOCK_PRICE } from './agent-homes.js';
import { usageLane } from './usage-suite.js';

usageLane('pi', {
  prompts: ['Say hello: usage check 1', 'Once more: usage check 2', 'After the restart: usage check 3'],
  check({ ours, served }) {
    const p = PI_MOCK_PRICE;
    const expected = (served.input * p.input + served.output * p.output + served.cacheRead * p.cacheRead + served.cacheWrite * p.cacheWrite) / 1e6;
    expect(ours.entries.every((e) => e.costUsd !== undefined && e.costUsd > 0), 'each answer has the cost pi recorded').toBe(true);
    expect(ours.costUsd).toBeCloseTo(expected, 12);
  },
});
