/** The session list: the window of the (filtered) rows that fits on screen. */
import { Box, Text, Transform } from 'ink';
import { memo, useContext, useRef } from 'react';
import { ago } from '../../core/board/ago.js';
import { visibleSessions } from '../../core/board/board-derived.js';
import type { BoardState } from '../../core/board/board-types.js';
import { sessionState } from '../../core/session-state.js';
import { countdownTickMs, limitedLabel } from '../../core/usage/limit-state.js';
import type { SessionView } from '../../state/host-store.js';
import { RenderCountContext, useCountRender } from '../contexts/RenderCountContext.js';
import { rowLine, sameRow, type RowInput } from '../ink/list-lines.js';
import { useTime } from '../contexts/TimeContext.js';
import { ageTickMs, useNow } from '../hooks/useNow.js';
import { useRowColumns } from '../row-columns.js';

export interface SessionListProps {
  state: BoardState;
  /** The feed's sessions the state is over. */
  sessions: readonly SessionView[];
  rows: number;
  width: number;
}

/**
 * The window of the (filtered) list that fits in `rows`, from the state's scroll offset. It goes
 * through its rows on every change of the state or the sessions; a row's line (src/ui/ink/list-lines.ts)
 * is built again only when what it shows did: the feed keeps a session's view object while nothing
 * of it changed, so one session's change builds one row. Memoized itself: a change of the preview
 * alone (the same state, the same sessions) does not go through the rows at all.
 */
export const SessionList = memo(function SessionList({ state, sessions, rows, width }: SessionListProps) {
  useCountRender('list');
  const vis = visibleSessions(state, sessions);
  const shown = vis.slice(state.scroll, state.scroll + rows);
  const { clock } = useTime();
  // The ages' tick, or a limited row's countdown's when it must move sooner.
  const countdown = countdownTickMs(shown.map((s) => (sessionState(s) === 'limited' ? s.limited?.resetAt : null)), clock.now());
  const now = useNow(Math.min(ageTickMs(youngestAge(shown, clock.now())), countdown ?? Infinity));
  // The host column is there when any row is another machine's (the board's --host), even a filtered-out one.
  const columns = useRowColumns(vis, width, sessions, state.usageShown);
  const counter = useContext(RenderCountContext);
  const built = useRef(new Map<string, { row: RowInput; line: string }>());
  if (vis.length === 0) {
    return (
      <Box height={rows} width={width}>
        <Text dimColor wrap="truncate-end">no session matches "{state.filter}"; Esc clears the filter</Text>
      </Box>
    );
  }
  // Each row's line, built again only when what it shows changed, and counted as it is.
  const lines: string[] = [];
  const next = new Map<string, { row: RowInput; line: string }>();
  for (const s of shown) {
    const row: RowInput = {
      session: s,
      selected: s.id === state.selectedId,
      marked: state.attention.includes(s.id),
      picked: state.marks.includes(s.id),
      since: ago(s.lastOutputAt ?? s.createdAt, now),
      limit: !s.stale && s.limited && sessionState(s) === 'limited' ? limitedLabel(s.limited, now) : '',
      columns,
    };
    let b = built.current.get(s.id);
    if (!b || !sameRow(b.row, row)) {
      b = { row, line: rowLine(row) };
      counter?.rendered('row', s.id);
    }
    next.set(s.id, b);
    lines.push(b.line);
  }
  built.current = next;
  return (
    <Box flexDirection="column" height={rows} width={width}>
      {/* The rows as the lines of one text: Ink lays out, walks and measures one node, a blank per
          line (the same text whatever the rows say, so Yoga's layout stays), and the transform puts
          each row's line in its place when the frame is made (the frame cache keeps the unchanged ones). */}
      {lines.length > 0 ? <Transform transform={(line, i) => lines[i] ?? line}>{blankLines(lines.length)}</Transform> : null}
    </Box>
  );
});

/** `n` lines of one blank each: what Ink measures of the list. */
function blankLines(n: number): string {
  return n > 0 ? ' ' + '\n '.repeat(n - 1) : '';
}

/** The age the row with the most recent activity shows. */
function youngestAge(rows: readonly SessionView[], nowMs: number): number {
  let youngest = Infinity;
  for (const s of rows) {
    const at = Date.parse(s.lastOutputAt ?? s.createdAt);
    if (Number.isFinite(at)) youngest = Math.min(youngest, nowMs - at);
  }
  return youngest;
}
