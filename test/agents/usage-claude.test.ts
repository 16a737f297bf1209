/**
 * Claude Code's usage read back from its conversation JSONL (test/agents/usage-suite.ts), and ccusage's
 * reading of the same file.
 */
import { expect } from 'vitest';
import { addTokens, zero } from '../helpers/usage-read.js';
import { usageLane } from './usage-suite.js';

interface CcusageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
}

usageLane('claude', {
  // The second answer has two text blocks (the mock's trigger): Claude Code writes that message on two
  // lines, each with the whole message's usage.
  prompts: ['Say hello: usage check 1', 'Now answer in two blocks: usage check 2', 'After the restart: usage check 3'],
  ccusage: {
    bin: 'ccusage',
    async compare({ home, ours, run }) {
      const out = (await run(['daily', '--json', '--offline'], { HOME: home, CLAUDE_CONFIG_DIR: `${home}/.claude` })) as { totals: CcusageTotals };
      const theirs = out.totals;
      // The lines a key was seen on before: ccusage dedupes by message id + `requestId`, and Claude Code
      // 2.1.332 writes no requestId (it writes `requestRef`), so ccusage counts such a message once per line.
      const keys = new Set<string>();
      let repeated = zero();
      for (const line of ours.lines) {
        if (line.key !== undefined && keys.has(line.key)) repeated = addTokens(repeated, line.tokens);
        if (line.key !== undefined) keys.add(line.key);
      }
      console.log(
        `[usage lane] claude: ccusage ${JSON.stringify(theirs)}; ours ${JSON.stringify(ours.tokens)}; ccusage counts again the lines of a message` +
          ` written once per content block: ${JSON.stringify(repeated)}`,
      );
      // Ours equals what the mock served (the test before); ccusage over-counts by exactly the repeated lines.
      expect(repeated.output, 'the two-block answer was written on two lines').toBeGreaterThan(0);
      expect({ input: theirs.inputTokens, output: theirs.outputTokens, cacheWrite: theirs.cacheCreationTokens, cacheRead: theirs.cacheReadTokens }).toEqual(addTokens(ours.tokens, repeated));
    },
  },
});
