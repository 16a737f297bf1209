/**
 * The prices shipped with agent-board, in US dollars per million tokens: input, output, cache
 * write (Anthropic's 5-minute cache write; vendors with no write charge bill it as input) and cache
 * read (cached input). List prices for the models the CLIs use, taken from the vendors' own pricing
 * pages (anthropic.com/pricing and docs.claude.com "Pricing"; openai.com/api/pricing;
 * ai.google.dev/gemini-api/docs/pricing) as they stood in November 2025, for prompts up to 200k
 * tokens (Gemini 2.5 Pro, Gemini 3 Pro and Sonnet's long context cost more above that). Prices
 * change: config.json's `prices` overrides any of them or adds a model (docs/usage.md).
 * A model that is not here, after its date suffix is dropped (prices.ts), has no price: its
 * tokens are shown and its cost is not guessed.
 */
/** US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

const p = (input: number, output: number, cacheWrite: number, cacheRead: number): ModelPrice => Object.freeze({ input, output, cacheWrite, cacheRead });

export const SHIPPED_PRICES: Readonly<Record<string, ModelPrice>> = Object.freeze({
  // Anthropic (Claude Code). Cache write is the 5-minute one (1.25 x input), cache read 0.1 x input.
  'claude-opus-4-5': p(5, 25, 6.25, 0.5),
  'claude-opus-4-1': p(15, 75, 18.75, 1.5),
  'claude-opus-4': p(15, 75, 18.75, 1.5),
  'claude-sonnet-4-5': p(3, 15, 3.75, 0.3),
  'claude-sonnet-4': p(3, 15, 3.75, 0.3),
  'claude-3-7-sonnet': p(3, 15, 3.75, 0.3),
  'claude-haiku-4-5': p(1, 5, 1.25, 0.1),
  'claude-3-5-haiku': p(0.8, 4, 1, 0.08),
  // OpenAI (Codex CLI). No cache write charge: a write is billed as input.
  'gpt-5.1-codex-max': p(1.25, 10, 1.25, 0.125),
  'gpt-5.1-codex': p(1.25, 10, 1.25, 0.125),
  'gpt-5.1-codex-mini': p(0.25, 2, 0.25, 0.025),
  'gpt-5.1': p(1.25, 10, 1.25, 0.125),
  'gpt-5-codex': p(1.25, 10, 1.25, 0.125),
  'gpt-5': p(1.25, 10, 1.25, 0.125),
  'gpt-5-mini': p(0.25, 2, 0.25, 0.025),
  'gpt-5-nano': p(0.05, 0.4, 0.05, 0.005),
  'gpt-4.1': p(2, 8, 2, 0.5),
  'o4-mini': p(1.1, 4.4, 1.1, 0.275),
  'o3': p(2, 8, 2, 0.5),
  // Google (Gemini CLI). No cache write charge per token (cache storage is billed by the hour, not here).
  'gemini-3-pro-preview': p(2, 12, 2, 0.2),
  'gemini-2.5-pro': p(1.25, 10, 1.25, 0.125),
  'gemini-2.5-flash': p(0.3, 2.5, 0.3, 0.03),
  'gemini-2.5-flash-lite': p(0.1, 0.4, 0.1, 0.01),
});
