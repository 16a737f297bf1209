/** One row of the session list, drawn again only when what it shows changed. */
import { Box, Text } from 'ink';
import { memo, useMemo } from 'react';
import { agentLabel } from '../../core/agents/agent-kinds.js';
import { rowStatusText } from '../../core/board/board-derived.js';
import { worktreeSummary } from '../../core/worktree/worktree.js';
import type { SessionView } from '../../state/host-store.js';
import { useCountRender } from '../contexts/RenderCountContext.js';
import { ATTENTION_COLOR, ATTENTION_MARK, statusStyle } from '../status-style.js';
import { cut, cutWords, fit, textWidth } from '../text-width.js';
import { ShapedRun } from './ShapedText.js';

/** Column widths shared by every row of the list. */
export interface RowColumns {
  width: number;
  name: number;
  /** The agent column: `shell` or `shell › claude` (an agent running in a shell session). */
  agent: number;
  /** The host column (the board's --host: `local` or the machine); 0 with this machine's sessions alone. */
  host: number;
}
const AGENT = 7;
const AGENT_MAX = 16;
export const STATUS = 10;
export const TIME = 4;
const HOST_MAX = 16;
/** What the host column says of this machine's rows. */
export const LOCAL_HOST = 'local';
/** Marker and mark, glyph, the gaps between columns (the agent column's width apart). */
export const FIXED = 2 + 2 + 1 + STATUS + 1 + TIME + 2 + 1;

/** The mark of a row the user marked (Space) for the prompt line, and its colour. */
export const PICK_MARK = '*';
export const PICK_COLOR = 'cyan';

export interface SessionRowProps {
  session: SessionView;
  selected: boolean;
  /** It rang and the user has not looked yet: `!` in the marker column (unless selected) and its name in the attention colour. */
  marked: boolean;
  /** The user marked it for the prompt line: `*` after the marker. */
  picked: boolean;
  /** How long since its last output, as shown ("5s"): the list works it out, so a clock tick redraws only the rows whose age reads differently. */
  since: string;
  /** The same object while the widths stay (useRowColumns). */
  columns: RowColumns;
}

/**
 * One session: marker, mark, glyph, name, agent, state, time since its last output, and its last
 * screen line. Memoized: the feed keeps a session's view object while nothing of it changed, so a
 * change to one session draws its row alone (Ink lays out and draws only the nodes React touched;
 * the other rows' text comes from the last frame: src/ui/ink-frame-cache.ts).
 */
export const SessionRow = memo(function SessionRow({ session: s, selected, marked, picked, since, columns }: SessionRowProps) {
  useCountRender('row', s.id);
  const st = statusStyle(s);
  const hostCol = columns.host > 0 ? columns.host + 1 : 0;
  const rest = columns.width - FIXED - columns.agent - columns.name - hostCol;
  // A worktree session's branch and counts come before its last screen line (docs/worktrees.md).
  const wt = s.worktree && rest > 4 ? '  ' + cut(worktreeSummary(s.worktree, s.worktreeStats), rest - 2) : '';
  const restAfter = rest - textWidth(wt);
  // In parts: Ink measures every text of the screen on every frame, and a text with one
  // character past ASCII takes the slow path for all of it (about 0.2 ms for a row); the glyphs
  // go apart, so the rest of a row (usually ASCII) takes the fast one, and they are shaped as
  // ASCII for Ink's measure (src/ui/ascii-shape.ts: 25 µs a row, a millisecond a frame).
  return (
    <Box width={columns.width} height={1}>
      <Box flexShrink={0}>
        <ShapedRun
          parts={[
            selected ? { text: '›', color: 'cyan', bold: true } : { text: marked ? ATTENTION_MARK : ' ', color: ATTENTION_COLOR, bold: true },
            { text: picked ? PICK_MARK : ' ', color: PICK_COLOR, bold: true },
            { text: st.glyph, color: st.color, bold: st.bold },
            { text: ' ' },
          ]}
        />
      </Box>
      <Text wrap="truncate-end">
        {hostCol ? <Text color={s.stale ? 'red' : 'gray'}>{fit(s.host ?? LOCAL_HOST, columns.host, true)} </Text> : null}
        <Text bold={selected || marked} inverse={selected} color={marked ? ATTENTION_COLOR : undefined}>{fit(s.name, columns.name, true)}</Text>{' '}
        <Text color="blue">{fit(agentLabel(s), columns.agent, true)}</Text>{' '}
        {s.stale ? (
          <Text color="red" dimColor>{fit('no link', STATUS)}</Text>
        ) : (
          <Text color={st.color === 'gray' ? undefined : st.color} dimColor={st.color === 'gray'} bold={st.bold}>{fit(rowStatusText(s), STATUS)}</Text>
        )}{' '}
        <Text>{since.padStart(TIME)}</Text>
      </Text>
      {wt ? <Text color="magenta" wrap="truncate-end">{wt}</Text> : null}
      {/* The last line is prose as often as not (an agent's status): cut after a whole word. */}
      {restAfter > 4 && s.previewLine ? <Text dimColor wrap="truncate-end">{'  ' + cutWords(s.previewLine.trim(), restAfter)}</Text> : null}
    </Box>
  );
});

type ColumnSource = readonly { name: string; agent: string; foregroundAgent?: string; host?: string }[];

/**
 * Name column: as wide as the longest name, between 8 and 20 (less on a
 * narrow list); agent column: 7, wider (up to 16) for a `shell › claude`;
 * host column: none while every row is this machine's, else as wide as the
 * longest host (`local` at least, 16 at most).
 */
export function rowColumns(sessions: ColumnSource, width: number, hostsOf: ColumnSource = sessions): RowColumns {
  const longest = sessions.reduce((m, s) => Math.max(m, s.name.length), 0);
  const agent = Math.max(AGENT, Math.min(AGENT_MAX, sessions.reduce((m, s) => Math.max(m, agentLabel(s).length), 0)));
  const hosts = hostsOf.reduce((m, s) => (s.host ? Math.max(m, s.host.length) : m), 0);
  const host = hosts > 0 ? Math.min(HOST_MAX, Math.max(LOCAL_HOST.length, hosts)) : 0;
  const name = Math.max(8, Math.min(20, longest, width - FIXED - agent - (host ? host + 1 : 0) - 8));
  return { width, name, agent, host };
}

/** rowColumns, the same object for as long as the widths are the same (SessionRow is memoized on it). */
export function useRowColumns(sessions: ColumnSource, width: number, hostsOf: ColumnSource = sessions): RowColumns {
  const c = rowColumns(sessions, width, hostsOf);
  return useMemo(() => c, [c.width, c.name, c.agent, c.host]);
}
