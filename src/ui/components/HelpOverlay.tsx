import { Box, Text } from 'ink';
import { BINDINGS, Command, type Binding } from '../../core/keybindings.js';
import { ATTENTION_COLOR, ATTENTION_MARK } from '../status-style.js';

export interface HelpOverlayProps {
  detachLabel: string;
  rows: number;
  width: number;
}

function Section({ title, bindings, width }: { title: string; bindings: readonly Binding[]; width: number }) {
  return (
    <Box flexDirection="column" width={width} flexShrink={0}>
      <Text bold>{title}</Text>
      {bindings.map((b) => (
        <Text key={b.command} wrap="truncate-end">
          <Text color="cyan">{b.label.padEnd(10)}</Text>
          {b.help}
        </Text>
      ))}
    </Box>
  );
}

/** The chat pane's own keys (its line edits as in the forms). */
const CHAT_KEYS = BINDINGS.chat.filter((b) => b.command !== Command.DeleteBack && b.command !== Command.ClearField);

/** Every key, from the binding table itself: board keys beside form and chat keys. */
export function HelpOverlay({ detachLabel, rows, width }: HelpOverlayProps) {
  const inner = width - 2;
  const twoColumns = inner >= 76;
  const left = twoColumns ? Math.min(52, Math.floor(inner * 0.55)) : inner;
  return (
    <Box flexDirection="column" height={rows} width={width} overflow="hidden" paddingX={1}>
      <Box flexDirection={twoColumns ? 'row' : 'column'} gap={twoColumns ? 2 : 0}>
        <Section title="Board" bindings={BINDINGS.list} width={left} />
        <Box flexDirection="column" flexShrink={0}>
          <Section title="Forms and the filter" bindings={BINDINGS.form} width={twoColumns ? inner - left - 2 : inner} />
          <Text> </Text>
          <Section title="Chat (c)" bindings={CHAT_KEYS} width={twoColumns ? inner - left - 2 : inner} />
        </Box>
      </Box>
      <Text> </Text>
      <Text wrap="truncate-end">
        <Text color={ATTENTION_COLOR} bold>{ATTENTION_MARK}</Text> finished or needs you, not seen yet: moving onto it or attaching clears it
      </Text>
      <Text wrap="wrap">
        While attached, <Text color="cyan">{detachLabel}</Text> comes back here; the session keeps running.
      </Text>
      <Text dimColor>Esc, ? or q closes this help.</Text>
    </Box>
  );
}
