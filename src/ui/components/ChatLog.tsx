/** The chat pane's messages, wrapped to the width, the newest at the bottom. */
import { Box, Text, type TextProps } from 'ink';
import { useMemo } from 'react';
import type { ChatRecord } from '../../core/chat/chat.js';
import { chatLines, type ChatLine, type ChatStyle } from '../chat-lines.js';
import { useChatViewport } from '../hooks/useChatViewport.js';

export interface ChatLogProps {
  room: string;
  /** The room's records; null until they are read. */
  records: readonly ChatRecord[] | null;
  rows: number;
  width: number;
  /** Wrapped lines scrolled back from the newest. */
  scroll: number;
}

const STYLE: Record<ChatStyle, TextProps> = {
  meta: { dimColor: true },
  human: { color: 'green', bold: true },
  agent: { color: 'cyan', bold: true },
  system: { color: 'yellow' },
  text: {},
  mention: { color: 'magenta', bold: true },
};

/** The room's messages, wrapped to the width, the newest at the bottom (or `scroll` lines back from it). */
export function ChatLog({ room, records, rows, width, scroll }: ChatLogProps) {
  const lines = useMemo(() => chatLines(records ?? [], width), [records, width]);
  useChatViewport(rows, lines.length);
  const end = Math.max(0, lines.length - scroll);
  const shown = lines.slice(Math.max(0, end - rows), end);
  return (
    <Box flexDirection="column" height={rows} width={width} justifyContent="flex-end" overflow="hidden">
      {records === null ? <Text dimColor>reading room {room}…</Text> : null}
      {records?.length === 0 ? <Text dimColor wrap="wrap">No messages in room {room} yet: type one below, Enter posts it.</Text> : null}
      {shown.map((line) => (
        <Row key={line.key} line={line} />
      ))}
    </Box>
  );
}

function Row({ line }: { line: ChatLine }) {
  return (
    <Text wrap="truncate-end">
      {line.segments.map((s, i) => (
        <Text key={i} {...STYLE[s.style]}>{s.text}</Text>
      ))}
    </Text>
  );
}
