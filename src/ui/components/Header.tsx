/** The board's header: the sessions counted by state, the filter, paused rooms and marked rows. */
import { Box, Text } from 'ink';
import { memo } from 'react';
import type { BoardSession } from '../../core/board/board-types.js';
import { exitKind, sessionState, type SessionState } from '../../core/session-state.js';
import { ATTENTION_COLOR, ATTENTION_MARK, NO_LINK_STYLE, statusStyle, type StatusStyle } from '../status-style.js';
import { PICK_COLOR, PICK_MARK } from '../row-columns.js';
import { cut, textWidth } from '../text-width.js';
import { useCountRender } from '../contexts/RenderCountContext.js';
import { ShapedRun, type RunPart } from '../ink/ShapedText.js';

export interface HeaderProps {
  sessions: readonly BoardSession[];
  /** How many the filter lets through. */
  shown: number;
  filter: string;
  /** "12/100" when the list is longer than the screen. */
  position: string | null;
  /** Rooms with sessions on the board whose loop guard is paused. */
  pausedRooms: readonly string[];
  /** How many rows are marked: they rang and the user has not looked yet. */
  unseen: number;
  /** How many rows the user marked for the prompt line. */
  marked: number;
  /** The board's --host: a line for each machine that cannot be reached now. */
  hostLines?: readonly string[];
  width: number;
}

interface Count {
  label: string;
  n: number;
  style: StatusStyle;
}

type Category = Exclude<SessionState, 'exited'> | 'exited-ok' | 'killed' | 'failed' | 'no-link';

/** The header's order: what needs the user first. */
const CATEGORIES: readonly { category: Category; label: string; style: StatusStyle }[] = [
  { category: 'waiting', label: 'waiting', style: statusStyle({ status: 'running', activity: 'waiting', exitCode: null, exitSignal: null }) },
  { category: 'busy', label: 'busy', style: statusStyle({ status: 'running', activity: 'busy', exitCode: null, exitSignal: null }) },
  { category: 'idle', label: 'idle', style: statusStyle({ status: 'running', activity: 'idle', exitCode: null, exitSignal: null }) },
  { category: 'limited', label: 'limited', style: statusStyle({ status: 'running', activity: 'idle', limited: { resetAt: null, line: '', since: '' }, exitCode: null, exitSignal: null }) },
  { category: 'starting', label: 'starting', style: statusStyle({ status: 'starting', exitCode: null, exitSignal: null }) },
  { category: 'exited-ok', label: 'exited', style: statusStyle({ status: 'exited', exitCode: 0, exitSignal: null }) },
  { category: 'killed', label: 'killed', style: statusStyle({ status: 'exited', exitCode: null, exitSignal: 'SIGTERM', killed: 'SIGTERM' }) },
  { category: 'failed', label: 'failed', style: statusStyle({ status: 'exited', exitCode: 1, exitSignal: null }) },
  { category: 'lost', label: 'lost', style: statusStyle({ status: 'lost', exitCode: null, exitSignal: null }) },
  { category: 'no-link', label: 'no link', style: NO_LINK_STYLE },
];

/**
 * What a row counts as. A row of a host that cannot be reached (`no link`) shows what was, not
 * what is: it is counted apart, never as the idle or busy it last was.
 */
function categoryOf(s: BoardSession): Category {
  if (s.stale) return 'no-link';
  const state = sessionState(s);
  if (state !== 'exited') return state;
  const how = exitKind(s);
  return how === 'ok' ? 'exited-ok' : how;
}

/** Sessions by state (src/core/session-state.ts); exited ones apart by how they ended; rows of an unreachable host apart. */
export function statusCounts(sessions: readonly BoardSession[]): Count[] {
  const n = new Map<Category, number>();
  for (const s of sessions) n.set(categoryOf(s), (n.get(categoryOf(s)) ?? 0) + 1);
  return CATEGORIES.flatMap(({ category, label, style }) => (n.get(category) ? [{ label, n: n.get(category)!, style }] : []));
}

const ATTENTION_STYLE: StatusStyle = { glyph: ATTENTION_MARK, color: ATTENTION_COLOR, bold: true };
const PICK_STYLE: StatusStyle = { glyph: PICK_MARK, color: PICK_COLOR, bold: true };

/** `⏸ room r1 paused (loop guard) — c then /continue` in `width` cells (shorter when it must), or '' when no room is paused. */
export function pausedText(rooms: readonly string[], width: number): string {
  if (rooms.length === 0) return '';
  const which = `${rooms.length === 1 ? 'room' : 'rooms'} ${rooms.join(', ')}`;
  const full = `⏸ ${which} paused (loop guard) — c then /continue`;
  return textWidth(full) <= width ? full : cut(`⏸ ${which} paused`, width);
}

/** `box: unreachable (...); retrying in 10 s`, several joined by ` | `, cut to `width`, or ''. */
export function hostsText(lines: readonly string[], width: number): string {
  return lines.length === 0 ? '' : cut(lines.join(' | '), width);
}

const NO_LINES: readonly string[] = [];

/**
 * The title, how many rows want attention, how many sessions there are in each state; paused
 * rooms, the filter and the position, when they matter. Memoized on what it shows of the
 * sessions (how many, and each one's state): a change of the preview, or a session's new line,
 * does not draw it again.
 */
export const Header = memo(function Header({ sessions, shown, filter, position, pausedRooms, unseen, marked, hostLines = NO_LINES, width }: HeaderProps) {
  useCountRender('header');
  // The rows that rang first: they are what the user should look at; then the ones a prompt would go to.
  const counts = [
    ...(unseen > 0 ? [{ label: 'unseen', n: unseen, style: ATTENTION_STYLE }] : []),
    ...(marked > 0 ? [{ label: 'marked', n: marked, style: PICK_STYLE }] : []),
    ...statusCounts(sessions),
  ];
  const title = `agent-board ${sessions.length} ${sessions.length === 1 ? 'session' : 'sessions'}`;
  const place = `${filter ? `filter "${filter}" ${shown}/${sessions.length}` : ''}${filter && position ? '  ' : ''}${position ?? ''}`;
  // A paused room matters more than the counts: it takes their room, leaving the title.
  const paused = pausedText(pausedRooms, Math.max(0, width - title.length - place.length - 3));
  // A machine that cannot be reached says so before the rest: its rows are stale.
  const down = hostsText(hostLines, Math.max(0, width - title.length - place.length - paused.length - 5));
  const right = `${down}${down && (paused || place) ? '  ' : ''}${paused}${paused && place ? '  ' : ''}${place}`;
  // Two spaces between the counts when they fit, one when they would not.
  const wide = title.length + counts.reduce((n, c) => n + 6 + String(c.n).length + c.label.length, 0) + right.length + 2 <= width;
  const sep = wide ? '  ' : ' ';
  const left: RunPart[] = [
    { text: 'agent-board', bold: true },
    { text: ` ${title.slice('agent-board '.length)}` },
    ...counts.flatMap(({ label, n, style }): RunPart[] => [{ text: sep }, { text: style.glyph, color: style.color, bold: style.bold }, { text: ` ${n} ${label}` }]),
  ];
  // Shaped for Ink's measure (the glyphs) when it fits beside the right part; else Ink cuts it.
  const fits = left.reduce((w, p) => w + textWidth(p.text), 0) + (right ? textWidth(right) + 1 : 0) <= width;
  return (
    <Box width={width} height={1} justifyContent="space-between">
      <ShapedRun parts={left} fits={fits} wrap="truncate-end" />
      {right ? (
        <Box flexShrink={0} marginLeft={1}>
          {down ? <Text color="red">{down}{paused || place ? '  ' : ''}</Text> : null}
          {paused ? <Text color="yellow" bold>{paused}{place ? '  ' : ''}</Text> : null}
          {filter ? <Text color="cyan">filter "{filter}" {shown}/{sessions.length}</Text> : null}
          {position ? <Text dimColor>{filter ? '  ' : ''}{position}</Text> : null}
        </Box>
      ) : null}
    </Box>
  );
}, sameHeader);

/** The same header: the same props, bar sessions that count the same (their number, each one's state). */
function sameHeader(a: HeaderProps, b: HeaderProps): boolean {
  for (const k of Object.keys(a) as (keyof HeaderProps)[]) if (k !== 'sessions' && a[k] !== b[k]) return false;
  if (Object.keys(a).length !== Object.keys(b).length) return false;
  return a.sessions === b.sessions || (a.sessions.length === b.sessions.length && a.sessions.every((s, i) => categoryOf(s) === categoryOf(b.sessions[i]!)));
}
