/**
 * What a message cost: its tokens times its model's price (per million tokens), from the shipped
 * list (price-list.ts) with config.json's `prices` over it. A model with no price is reported as
 * such (`null`), never priced like a neighbour.
 */
import { SHIPPED_PRICES, type ModelPrice } from './price-list.js';
import type { TokenCounts } from './usage-types.js';

export type PriceTable = Readonly<Record<string, ModelPrice>>;

/** The shipped prices with the user's own (config.json `prices`) over them, model by model. */
export function priceTable(overrides: PriceTable = {}): PriceTable {
  return { ...SHIPPED_PRICES, ...overrides };
}

/**
 * The name a price is listed under: a provider's prefix (`anthropic/`, `models/`) and a date or
 * `latest` suffix (`claude-sonnet-4-5-20250929`, `gpt-5-2025-08-07`, `-latest`) dropped, lower case.
 * Nothing else is dropped: `gpt-5-mini` is never `gpt-5`.
 */
export function priceName(model: string): string {
  let m = model.trim().toLowerCase();
  const slash = m.lastIndexOf('/');
  if (slash >= 0) m = m.slice(slash + 1);
  return m.replace(/-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$/, '');
}

/** The model's price, or null when it has none (the exact name first, then its listed name). */
export function priceOf(model: string, table: PriceTable): ModelPrice | null {
  return table[model] ?? table[priceName(model)] ?? null;
}

/** The cost in US dollars of `tokens` at `price`. */
export function costOf(tokens: TokenCounts, price: ModelPrice): number {
  return (tokens.input * price.input + tokens.output * price.output + tokens.cacheWrite * price.cacheWrite + tokens.cacheRead * price.cacheRead) / 1_000_000;
}

/** Reads config.json's `prices` value: the valid models' prices, and a line for each bad one. */
export function parsePrices(v: unknown, file: string): { prices: Record<string, ModelPrice>; errors: string[] } {
  const prices: Record<string, ModelPrice> = {};
  const errors: string[] = [];
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    return { prices, errors: [`${file}: "prices" must be an object like {"model": {"input": 3, "output": 15, "cacheWrite": 3.75, "cacheRead": 0.3}} (dollars per million tokens); ignored`] };
  }
  for (const [model, raw] of Object.entries(v as Record<string, unknown>)) {
    const o = raw as Record<string, unknown> | null;
    const num = (k: string, dflt?: number): number | null => {
      const x = o?.[k];
      if (x === undefined && dflt !== undefined) return dflt;
      return typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : null;
    };
    const input = num('input');
    const output = num('output');
    // A vendor without a cache split: cache writes cost as input, cache reads as input too unless said.
    const cacheWrite = input === null ? null : num('cacheWrite', input);
    const cacheRead = input === null ? null : num('cacheRead', input);
    if (typeof o !== 'object' || o === null || input === null || output === null || cacheWrite === null || cacheRead === null) {
      errors.push(`${file}: the price of ${JSON.stringify(model)} needs numbers input and output (and optionally cacheWrite, cacheRead), dollars per million tokens; ignored`);
      continue;
    }
    prices[model] = { input, output, cacheWrite, cacheRead };
  }
  return { prices, errors };
}
