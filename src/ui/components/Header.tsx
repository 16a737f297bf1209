import { Box, Text } from 'ink';
import type { BoardSession } from '../../core/board-state.js';
import { statusStyle } from '../status-style.js';
import { cut, textWidth } from '../text-width.js';

export interface HeaderProps {
  sessions: readonly BoardSession[];
  /** How many the filter lets through. */
  shown: number;
  filter: string;
  /** "12/100" when the list is longer than the screen. */
  position: string | null;
  /** Rooms with sessions on the board whose loop guard is paused. */
  pausedRooms: readonly string[];
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

/** `⏸ room r1 paused (loop guard) — c then /continue` in `width` cells (shorter when it must), or '' when no room is paused. */
export function pausedText(rooms: readonly string[], width: number): string {
  if (rooms.length === 0) return '';
  const which = `${rooms.length === 1 ? 'room' : 'rooms'} ${rooms.join(', ')}`;
  const full = `⏸ ${which} paused (loop guard) — c then /continue`;
  return textWidth(full) <= width ? full : cut(`⏸ ${which} paused`, width);
}

/** The title and how many sessions there are in each status; paused rooms, the filter and the position, when they matter. */
export function Header({ sessions, shown, filter, position, pausedRooms, width }: HeaderProps) {
  const counts = statusCounts(sessions);
  const title = `agent-board ${sessions.length} ${sessions.length === 1 ? 'session' : 'sessions'}`;
  const place = `${filter ? `filter "${filter}" ${shown}/${sessions.length}` : ''}${filter && position ? '  ' : ''}${position ?? ''}`;
  // A paused room matters more than the counts: it takes their room, leaving the title.
  const paused = pausedText(pausedRooms, Math.max(0, width - title.length - place.length - 3));
  const right = `${paused}${paused && place ? '  ' : ''}${place}`;
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
          {paused ? <Text color="yellow" bold>{paused}{place ? '  ' : ''}</Text> : null}
          {filter ? <Text color="cyan">filter "{filter}" {shown}/{sessions.length}</Text> : null}
          {position ? <Text dimColor>{filter ? '  ' : ''}{position}</Text> : null}
        </Box>
      ) : null}
    </Box>
  );
}
