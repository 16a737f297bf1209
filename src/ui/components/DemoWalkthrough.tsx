/** The demo's walkthrough above the list: what the demo shows and the keys that matter, until h hides it. */
import { Box, Text } from 'ink';
import { BINDINGS, Command } from '../../core/board/keybindings.js';
import { walkthroughText } from '../../core/board/walkthrough.js';
import { cutWords, textWidth } from '../text-width.js';

/** The key that hides it, as the binding table has it. */
const HIDE_KEY = BINDINGS.list.find((b) => b.command === Command.HideWalkthrough)!.label;

/** `text` in lines of at most `width` cells, broken between words (a word longer than a line is cut, with an ellipsis). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (textWidth(next) <= width || !line) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines.map((l) => cutWords(l, width));
}

/** The walkthrough's lines at this width: one line when both sentences fit on it, else each wrapped. */
export function walkthroughLines(width: number, detachLabel: string): string[] {
  const { what, keys } = walkthroughText(detachLabel, HIDE_KEY);
  const one = `${what} · ${keys}`;
  if (textWidth(one) <= width) return [one];
  return [...wrapWords(what, width), ...wrapWords(keys, width)];
}

export function DemoWalkthrough({ lines, width }: { lines: readonly string[]; width: number }) {
  return (
    <Box flexDirection="column" height={lines.length} width={width}>
      {lines.map((l, i) => (
        <Text key={i} color="cyan" wrap="truncate-end">{l}</Text>
      ))}
    </Box>
  );
}
