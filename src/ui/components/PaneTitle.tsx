import { Text } from 'ink';
import { cut, textWidth } from '../text-width.js';

/** `── TEXT ─────`: the title row of a pane that takes the preview's place (prompt results, explain). */
export function PaneTitle({ text, width }: { text: string; width: number }) {
  const head = cut(`── ${text} `, width);
  return (
    <Text wrap="truncate-end">
      <Text bold>{head}</Text>
      <Text dimColor>{'─'.repeat(Math.max(0, width - textWidth(head)))}</Text>
    </Text>
  );
}
