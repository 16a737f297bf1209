/** The line above the list when sessions are lost (their runners gone: a reboot, a logout): how many, and the key that revives them all. */
import { Box, Text } from 'ink';
import { BINDINGS, Command } from '../../core/board/keybindings.js';
import { cut } from '../text-width.js';

/** The key that revives them, as the binding table has it. */
const REVIVE_KEY = BINDINGS.list.find((b) => b.command === Command.ReviveLost)!.label;

/** `3 sessions lost (the machine restarted?): R revives them all`, cut to `width`. */
export function lostText(lost: number, width: number): string {
  const which = lost === 1 ? '1 session lost' : `${lost} sessions lost`;
  return cut(`⚠ ${which} (the machine restarted?): ${REVIVE_KEY} revives ${lost === 1 ? 'it' : 'them all'}`, width);
}

export function LostBanner({ lost, width }: { lost: number; width: number }) {
  return (
    <Box height={1} width={width}>
      <Text color="yellow" bold wrap="truncate-end">{lostText(lost, width)}</Text>
    </Box>
  );
}
