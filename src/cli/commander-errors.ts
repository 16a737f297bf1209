/**
 * commander's parse errors as the CLI's other failures read: one line on stderr,
 * `agent-board: <what> (did you mean X?); see: agent-board <command> --help`. commander writes its
 * message (`error: unknown option '--jsn'`), its guess on a line of its own, and its hint on a third.
 */
import type { Command } from 'commander';

/** The words that run `c`: `agent-board chat post`. */
export function commandPath(c: Command): string {
  const names: string[] = [];
  for (let at: Command | null = c; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** commander's error text as one line, without the `agent-board:` and the hint. */
export function oneLineMessage(text: string): string {
  const [first = '', ...rest] = text.trim().split('\n');
  const guess = rest.map((l) => /^\(Did you mean (.+)\?\)$/.exec(l.trim())).find((m) => m !== null);
  const message = first
    .replace(/^error: /, '')
    .replace(/\.$/, '')
    .replace(/'([^']*)'/g, '"$1"'); // quoted as our own messages quote
  return guess ? `${message} (did you mean ${guess[1]}?)` : message;
}

/** commander's `outputError` for command `c`. */
export function commanderErrorOutput(c: Command): (text: string, write: (s: string) => void) => void {
  return (text, write) => write(`agent-board: ${oneLineMessage(text)}; see: ${commandPath(c)} --help\n`);
}
