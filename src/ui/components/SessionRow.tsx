import { Box, Text } from 'ink';
import { ago } from '../../core/ago.js';
import { statusText } from '../../core/board-state.js';
import type { SessionView } from '../../state/host-store.js';
import { statusStyle } from '../status-style.js';
import { cut, fit } from '../text-width.js';

/** Column widths shared by every row of the list. */
export interface RowColumns {
  width: number;
  name: number;
}
const AGENT = 7;
const STATUS = 10;
const TIME = 4;
/** Marker, glyph, the gaps between columns. */
const FIXED = 2 + 2 + AGENT + 1 + STATUS + 1 + TIME + 2 + 1;

export interface SessionRowProps {
  session: SessionView;
  selected: boolean;
  now: number;
  columns: RowColumns;
}

/** One session: glyph, name, agent, status, time since its last output, and its last screen line. */
export function SessionRow({ session: s, selected, now, columns }: SessionRowProps) {
  const st = statusStyle(s);
  const rest = columns.width - FIXED - columns.name;
  const since = ago(s.lastOutputAt ?? s.createdAt, now);
  return (
    <Box width={columns.width} height={1}>
      <Text wrap="truncate-end">
        <Text color="cyan" bold>{selected ? '›' : ' '}</Text>{' '}
        <Text color={st.color}>{st.glyph}</Text>{' '}
        <Text bold={selected} inverse={selected}>{fit(s.name, columns.name, true)}</Text>{' '}
        <Text color="blue">{fit(s.agent, AGENT, true)}</Text>{' '}
        <Text color={st.color === 'gray' ? undefined : st.color}>{fit(statusText(s), STATUS)}</Text>{' '}
        <Text>{since.padStart(TIME)}</Text>
        {rest > 4 && s.previewLine ? <Text dimColor>{'  ' + cut(s.previewLine.trim(), rest)}</Text> : null}
      </Text>
    </Box>
  );
}

/** Name column: as wide as the longest name, between 8 and 20 (less on a narrow list). */
export function rowColumns(sessions: readonly { name: string }[], width: number): RowColumns {
  const longest = sessions.reduce((m, s) => Math.max(m, s.name.length), 0);
  const name = Math.max(8, Math.min(20, longest, width - FIXED - 8));
  return { width, name };
}
