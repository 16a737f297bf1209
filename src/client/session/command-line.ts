/**
 * Splits what the user typed in the new-session form's command field into a
 * program and its arguments, the way a shell would for the simple cases:
 * whitespace separates words, single and double quotes group, backslash escapes.
 */
export function splitCommandLine(line: string): string[] | { error: string } {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i]!;
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i]!;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (quote) return { error: `the command has an unclosed ${quote}` };
  if (word !== null) words.push(word);
  if (words.length === 0) return { error: 'type a command to run' };
  return words;
}
