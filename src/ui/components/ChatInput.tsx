/** The chat pane's input line. */
import { Box, Text } from 'ink';
import { TextField } from './TextField.js';

export interface ChatInputProps {
  value: string;
  pending: boolean;
  width: number;
}

/** The line being typed, under the messages; Enter posts it. */
export function ChatInput({ value, pending, width }: ChatInputProps) {
  const tail = pending ? ' sending…' : '';
  return (
    <Box height={1} width={width}>
      <Text color="cyan" bold>› </Text>
      <TextField value={value} focused={!pending} width={Math.max(5, width - 2 - tail.length)} />
      {pending ? <Text dimColor>{tail}</Text> : null}
    </Box>
  );
}
