/** The header while the board types into a session (type-through). */
import { Box, Text } from 'ink';
import { cut } from '../text-width.js';

export interface TypingBarProps {
  name: string;
  detachLabel: string;
  width: number;
}

/** The header while the board types into a session: whose screen the keys go to, and the way back. */
export function TypingBar({ name, detachLabel, width }: TypingBarProps) {
  return (
    <Box width={width} height={1}>
      <Text color="black" backgroundColor="cyan" bold wrap="truncate-end">
        {cut(` typing into ${name} — ${detachLabel} back `, width)}
      </Text>
    </Box>
  );
}
