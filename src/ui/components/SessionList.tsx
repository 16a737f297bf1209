/** The session list: the window of the (filtered) rows that fits on screen. */
import { Box, Text } from 'ink';
import { memo } from 'react';
import { ago } from '../../core/board/ago.js';
import { visibleSessions } from '../../core/board/board-derived.js';
import type { BoardState } from '../../core/board/board-types.js';
import type { SessionView } from '../../state/host-store.js';
import { useCountRender } from '../contexts/RenderCountContext.js';
import { useTime } from '../contexts/TimeContext.js';
import { ageTickMs, useNow } from '../hooks/useNow.js';
import { SessionRow, useRowColumns } from './SessionRow.js';

export interface SessionListProps {
  state: BoardState;
  /** The feed's sessions, for what the state does not keep (activity, preview line). */
  views: readonly SessionView[];
  rows: number;
  width: number;
}

/**
 * The window of the (filtered) list that fits in `rows`, from the state's scroll offset. It goes
 * through its rows on every change of the state or the sessions; each row (memoized) draws again
 * only when what it shows did. Memoized itself: a change of the preview alone (the same state,
 * the same sessions) does not go through the rows at all.
 */
export const SessionList = memo(function SessionList({ state, views, rows, width }: SessionListProps) {
  useCountRender('list');
  const byId = new Map(views.map((v) => [v.id, v]));
  const vis = visibleSessions(state);
  const shown = vis.slice(state.scroll, state.scroll + rows).flatMap((s) => byId.get(s.id) ?? []);
  const { clock } = useTime();
  const now = useNow(ageTickMs(youngestAge(shown, clock.now())));
  // The host column is there when any row is another machine's (the board's --host), even a filtered-out one.
  const columns = useRowColumns(vis, width, views);
  if (vis.length === 0) {
    return (
      <Box height={rows} width={width}>
        <Text dimColor wrap="truncate-end">no session matches "{state.filter}"; Esc clears the filter</Text>
      </Box>
    );
  }
  return (
    <Box flexDirection="column" height={rows} width={width}>
      {shown.map((s) => (
        <SessionRow
          key={s.id}
          session={s}
          selected={s.id === state.selectedId}
          marked={state.attention.includes(s.id)}
          picked={state.marks.includes(s.id)}
          since={ago(s.lastOutputAt ?? s.createdAt, now)}
          columns={columns}
        />
      ))}
    </Box>
  );
});

/** The age the row with the most recent activity shows. */
function youngestAge(rows: readonly SessionView[], nowMs: number): number {
  let youngest = Infinity;
  for (const s of rows) {
    const at = Date.parse(s.lastOutputAt ?? s.createdAt);
    if (Number.isFinite(at)) youngest = Math.min(youngest, nowMs - at);
  }
  return youngest;
}
