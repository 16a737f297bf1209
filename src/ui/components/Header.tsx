import { Box, Text } from 'ink';
import type { BoardSession } from '../../core/board-state.js';
import { statusStyle } from '../status-style.js';

export interface HeaderProps {
  sessions: readonly BoardSession[];
  /** How many the filter lets through. */
  shown: number;
  filter: string;
  /** "12/100" when the list is longer than the screen. */
  position: string | null;
  width: number;
}

interface Count {
  label: string;
  n: number;
  sample: Pick<BoardSession, 'status' | 'exitCode' | 'exitSignal'>;
}

/** Sessions by status; exited ones apart by whether they ended well. */
export function statusCounts(sessions: readonly BoardSession[]): Count[] {
  const failed = (s: BoardSession) => s.status === 'exited' && (s.exitCode !== 0 || s.exitSignal !== null);
  const count = (label: string, sample: Count['sample'], pick: (s: BoardSession) => boolean): Count => ({ label, sample, n: sessions.filter(pick).length });
  return [
    count('running', { status: 'running', exitCode: null, exitSignal: null }, (s) => s.status === 'running'),
    count('starting', { status: 'starting', exitCode: null, exitSignal: null }, (s) => s.status === 'starting'),
    count('exited', { status: 'exited', exitCode: 0, exitSignal: null }, (s) => s.status === 'exited' && !failed(s)),
    count('failed', { status: 'exited', exitCode: 1, exitSignal: null }, failed),
    count('lost', { status: 'lost', exitCode: null, exitSignal: null }, (s) => s.status === 'lost'),
  ].filter((c) => c.n > 0);
}

/** The title and how many sessions there are in each status; the filter and the position, when they matter. */
export function Header({ sessions, shown, filter, position, width }: HeaderProps) {
  const counts = statusCounts(sessions);
  const title = `agent-board ${sessions.length} ${sessions.length === 1 ? 'session' : 'sessions'}`;
  const right = `${filter ? `filter "${filter}" ${shown}/${sessions.length}` : ''}${filter && position ? '  ' : ''}${position ?? ''}`;
  // Two spaces between the counts when they fit, one when they would not.
  const wide = title.length + counts.reduce((n, c) => n + 6 + String(c.n).length + c.label.length, 0) + right.length + 2 <= width;
  const sep = wide ? '  ' : ' ';
  return (
    <Box width={width} height={1} justifyContent="space-between">
      <Text wrap="truncate-end">
        <Text bold>agent-board</Text>
        <Text> {title.slice('agent-board '.length)}</Text>
        {counts.map(({ label, n, sample }) => {
          const st = statusStyle(sample);
          return (
            <Text key={label}>
              {sep}
              <Text color={st.color}>{st.glyph}</Text> {n} {label}
            </Text>
          );
        })}
      </Text>
      {right ? (
        <Box flexShrink={0} marginLeft={1}>
          {filter ? <Text color="cyan">filter "{filter}" {shown}/{sessions.length}</Text> : null}
          {position ? <Text dimColor>{filter ? '  ' : ''}{position}</Text> : null}
        </Box>
      ) : null}
    </Box>
  );
}
