/** The question asked before a kill. */
import { Box, Text } from 'ink';

export interface ConfirmDialogProps {
  name: string;
  width: number;
}

/** Asks before a kill: a program killed by mistake takes its work with it. */
export function ConfirmDialog({ name, width }: ConfirmDialogProps) {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="red" paddingX={1} width={width}>
      <Text bold>Kill {name}?</Text>
      <Text wrap="wrap">Its program gets SIGTERM and SIGHUP, and SIGKILL 4 s later if it is still there.</Text>
      <Text>
        <Text color="red" bold>y</Text> kill   <Text bold>n</Text> keep it
      </Text>
    </Box>
  );
}
