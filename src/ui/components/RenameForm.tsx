/** The rename form. */
import { Box, Text } from 'ink';
import { TextField } from './TextField.js';

export interface RenameFormProps {
  oldName: string;
  value: string;
  pending: boolean;
  error: string | null;
  width: number;
}

/** Rename the selected session. */
export function RenameForm({ oldName, value, pending, error, width }: RenameFormProps) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1} width={width}>
      <Text bold>Rename {oldName}</Text>
      <Box>
        <Text>new name </Text>
        <TextField value={value} focused={!pending} width={Math.max(10, width - 14)} />
      </Box>
      {pending ? <Text color="yellow">renaming…</Text> : null}
      {error ? <Text color="red" wrap="wrap">{error}</Text> : null}
    </Box>
  );
}
