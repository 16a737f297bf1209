/**
 * Codex's usage read back from its rollout file (test/agents/usage-suite.ts), and @ccusage/codex's
 * reading of the same file.
 */
import { expect } from 'vitest';
import { usageLane } from './usage-suite.js';

interface CodexTotals {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningOutputTokens: number;
}

usageLane('codex', {
  prompts: ['Say hello: usage check 1', 'Once more: usage check 2', 'After the restart: usage check 3'],
  ccusage: {
    bin: 'ccusage-codex',
    async compare({ home, ours, run }) {
      const out = (await run(['daily', '--json', '--offline'], { HOME: home, CODEX_HOME: `${home}/.codex` })) as { totals: CodexTotals };
      const theirs = out.totals;
      console.log(`[usage lane] codex: @ccusage/codex ${JSON.stringify(theirs)}; ours ${JSON.stringify(ours.tokens)}`);
      // ccusage's input counts the cached tokens too (as Codex's own input_tokens does); ours is the fresh part.
      expect({ input: theirs.inputTokens - theirs.cachedInputTokens, output: theirs.outputTokens, cacheRead: theirs.cachedInputTokens }).toEqual({
        input: ours.tokens.input + ours.tokens.cacheWrite,
        output: ours.tokens.output,
        cacheRead: ours.tokens.cacheRead,
      });
    },
  },
});
