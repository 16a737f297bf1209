/**
 * pi's usage limit on its screen (docs/usage.md, "Usage limits"). pi shows the provider's own error:
 * a 429 is retried (3 times, 2, 4 and 8 s apart), each try leaving an `Error: 429 ...` block, and
 * then `Error: Retry failed after 3 attempts: 429 ...`. Against OpenAI's API the words are OpenAI's:
 *
 *   Error: Retry failed after 3 attempts: 429 Rate limit reached for mock-model in
 *   organization org-mock on requests per day (RPD): Limit 100, Used 100,
 *   Requested 1. Please try again in 1h59m41s. Visit
 *
 * The wait counts from when pi printed it, so the reset is read best right after (the runner reads
 * each screen as it changes). The block must be the last thing above pi's input box: while pi retries
 * its spinner is below it, and a later turn's text follows it.
 */
import type { LimitSeen } from '../usage-types.js';
import { bare, blockAt, isBreak, oneLine } from './limit-screen.js';
import { parseDuration } from './limit-time.js';
import { isoTime } from '../../iso-time.js';

const ERROR = /^Error:\s/;
/** A 429 that is a limit: a rate limit, a quota or a usage limit, as the vendors word it. */
const LIMIT = /\b429\b.*\b(?:rate limit|quota|usage limit|resource_exhausted|too many requests)/i;
const WAIT = /(?:try again|retry) in ((?:\d+(?:\.\d+)?\s*[a-z]+[\s,]*)+)/i;
const RULE = /^─{10,}$/;

export function piLimit(rows: readonly string[], now: number): LimitSeen | null {
  // The editor is between the last two rules; the last block above it is what pi printed last.
  const rules = rows.flatMap((r, i) => (RULE.test(r.trim()) ? [i] : []));
  let i = (rules.at(-2) ?? rows.length) - 1;
  while (i >= 0 && isBreak(rows[i]!)) i--;
  // Back to the first row of that block.
  while (i > 0 && !isBreak(rows[i - 1]!)) i--;
  if (i < 0 || !ERROR.test(bare(rows[i]!))) return null;
  const { text } = blockAt(rows, i);
  if (!LIMIT.test(text)) return null;
  const wait = WAIT.exec(text)?.[1];
  const ms = wait ? parseDuration(wait.replace(/[\s,.]+$/, '')) : null;
  return { resetAt: ms === null ? null : isoTime(now + ms), line: oneLine(text) };
}
