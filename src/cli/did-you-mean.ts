/**
 * "did you mean ls?" for a mistyped command. commander makes the same guess for an unknown option
 * or subcommand, but only for words its own parse reaches, and it does not export how it guesses:
 * the program's first word is checked before the parse (main.ts), so it is guessed here, by the
 * same rule (an edit distance of at most 2, with adjacent letters swapped counting as one edit,
 * and no more than 60% of the word changed).
 */

const MAX_DISTANCE = 2;
const MIN_SIMILARITY = 0.4;

/** The optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/** The candidates closest to `word` (all those at the best distance, in order), or none close enough. */
export function closestWords(word: string, candidates: readonly string[]): string[] {
  let best: string[] = [];
  let bestDistance = MAX_DISTANCE + 1;
  for (const c of new Set(candidates)) {
    if (c.length < 2) continue;
    const distance = editDistance(word, c);
    const similarity = (Math.max(word.length, c.length) - distance) / Math.max(word.length, c.length);
    if (distance > MAX_DISTANCE || similarity <= MIN_SIMILARITY) continue;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = [c];
    } else if (distance === bestDistance) {
      best.push(c);
    }
  }
  return best;
}

/** ` (did you mean ls?)`, ` (did you mean pr or rm?)`, or nothing. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const close = closestWords(word, candidates);
  if (close.length === 0) return '';
  return ` (did you mean ${close.length === 1 ? close[0] : `${close.slice(0, -1).join(', ')} or ${close.at(-1)}`}?)`;
}
