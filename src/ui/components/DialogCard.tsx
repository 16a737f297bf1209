/** A waiting session's dialog (its question and numbered options) drawn over its screen in the preview. */
import { Box, Text } from 'ink';
import type { DialogText } from '../../core/agents/dialog-text.js';
import { cutWords } from '../text-width.js';

export interface DialogCardProps {
  dialog: DialogText;
  width: number;
}

/** Rows the card takes: the question, then an option a row. */
export const dialogCardRows = (d: DialogText) => 1 + d.options.length;

export const DIALOG_BAR = '▌ ';

/**
 * A waiting session's question and options, over its screen in the preview,
 * so they show however the screen is cropped; the digits answer it.
 */
export function DialogCard({ dialog, width }: DialogCardProps) {
  const inner = Math.max(1, width - DIALOG_BAR.length);
  const hint = ' 1-9 answers';
  const question = dialog.question || 'The session asks:';
  return (
    <Box flexDirection="column" width={width} height={dialogCardRows(dialog)}>
      <Text wrap="truncate-end">
        <Text color="magentaBright">{DIALOG_BAR}</Text>
        <Text bold>{cutWords(question, Math.max(1, inner - hint.length))}</Text>
        <Text dimColor>{hint}</Text>
      </Text>
      {dialog.options.map((o) => (
        <Text key={o.number} wrap="truncate-end">
          <Text color="magentaBright">{DIALOG_BAR}</Text>
          <Text color="magentaBright" bold>{o.number}</Text>
          <Text inverse={o.selected}>{cutWords(` ${o.label}`, inner - 1)}</Text>
        </Text>
      ))}
    </Box>
  );
}
