import { Box, Text } from 'ink';
import { statusText } from '../../core/board-state.js';
import type { PreviewScreen } from '../board-api.js';
import type { SessionView } from '../../state/host-store.js';
import { cropPreview } from '../preview-crop.js';
import { statusStyle } from '../status-style.js';
import { cut, textWidth } from '../text-width.js';

export interface PreviewPaneProps {
  session: SessionView | null;
  preview: PreviewScreen | null;
  /** Screen lines the pane shows (its title line comes on top). */
  rows: number;
  width: number;
}

/** The selected session's screen, cropped to fit, under a title line. */
export function PreviewPane({ session, preview, rows, width }: PreviewPaneProps) {
  const screen = session && preview?.id === session.id ? preview : null;
  const size = screen ? `${screen.cols}x${screen.rows}${screen.final ? ', last screen' : ''}` : '';
  return (
    <Box flexDirection="column" width={width} height={rows + 1}>
      {session ? <Title session={session} size={size} width={width} /> : <Text dimColor>{rule('──  ', width)}</Text>}
      {screen ? <ScreenLines lines={cropPreview(screen, width, rows)} /> : <Text dimColor>{placeholder(session)}</Text>}
    </Box>
  );
}

function ScreenLines({ lines }: { lines: string[] }) {
  return (
    <>
      {lines.map((line, i) => (
        <Text key={i} wrap="truncate-end">{line || ' '}</Text>
      ))}
    </>
  );
}

/** `── NAME (STATE) 80x24 ───`, the state in its colour. */
function Title({ session, size, width }: { session: SessionView; size: string; width: number }) {
  const head = `── ${session.name} `;
  const state = `(${statusText(session)})`;
  const tail = size ? ` ${size} ` : ' ';
  const full = head + state + tail;
  if (textWidth(full) > width) return <Text dimColor>{rule(full, width)}</Text>;
  const st = statusStyle(session);
  const grey = st.color === 'gray';
  return (
    <Text wrap="truncate-end">
      <Text dimColor>{head}</Text>
      <Text color={grey ? undefined : st.color} dimColor={grey} bold={st.bold}>{state}</Text>
      <Text dimColor>{tail + '─'.repeat(width - textWidth(full))}</Text>
    </Text>
  );
}

/** The title, then a line to the pane's edge. */
function rule(title: string, width: number): string {
  const head = cut(title, width);
  return head + '─'.repeat(Math.max(0, width - textWidth(head)));
}

function placeholder(s: SessionView | null): string {
  if (!s) return '';
  if (s.status === 'lost') return 'its runner is gone: no screen to show';
  if (s.status === 'exited') return 'no last screen was saved';
  return 'waiting for the screen…';
}
