import { Box, Text } from 'ink';

/** What an empty board says: how to start a session. */
export function EmptyBoard({ rows, width }: { rows: number; width: number }) {
  return (
    <Box flexDirection="column" height={rows} width={width} paddingX={2} paddingY={1}>
      <Text bold>No sessions yet.</Text>
      <Text> </Text>
      <Text>
        Press <Text color="cyan" bold>n</Text> to start one here (an agent or any command),
      </Text>
      <Text>or from any shell:</Text>
      <Text color="cyan">  agent-board new --name api -- claude</Text>
      <Text> </Text>
      <Text dimColor>Sessions keep running when the board quits; q quits, ? shows every key.</Text>
    </Box>
  );
}
