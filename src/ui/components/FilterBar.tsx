/** The filter being typed, in place of the footer. */
import { Box, Text } from 'ink';
import { TextField } from './TextField.js';

export interface FilterBarProps {
  filter: string;
  shown: number;
  total: number;
  width: number;
}

/** The filter being typed, in place of the footer. */
export function FilterBar({ filter, shown, total, width }: FilterBarProps) {
  const tail = `  ${shown} of ${total}  Enter keep  Esc clear`;
  return (
    <Box height={1} width={width}>
      <Text color="cyan">/ </Text>
      <TextField value={filter} focused width={Math.max(5, width - 2 - tail.length)} />
      <Text dimColor wrap="truncate-end">{tail}</Text>
    </Box>
  );
}
