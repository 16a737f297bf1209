/**
 * A session row as one styled string: the same cells and styles as <SessionRow/> draws, built
 * without a tree of Ink nodes. Ink goes through every node of the screen on every frame (squashes
 * each text, measures it with string-width, reads its box from Yoga), and a row is eleven
 * of them: for 47 rows that walk, the layout of those nodes and React's pass over them were
 * most of a frame when one row had changed. The list draws its rows as the lines of one text
 * (src/ui/components/SessionList.tsx); this builds a line.
 */
import { agentLabel } from '../core/agents/agent-kinds.js';
import { rowStatusText } from '../core/board/board-derived.js';
import { worktreeSummary } from '../core/worktree/worktree.js';
import { inkTextWidth } from './ink-frame-cache.js';
import { inkStyle } from './ink-internals.js';
import { ATTENTION_COLOR, ATTENTION_MARK, statusStyle } from './status-style.js';
import { cut, cutWords, fit, textWidth } from './text-width.js';
import { FIXED, LOCAL_HOST, PICK_COLOR, PICK_MARK, STATUS, TIME, type SessionRowProps } from './components/SessionRow.js';

/** Whether the list draws its rows as lines (the tests turn it off to compare with <SessionRow/>). */
export const listLines = { enabled: true };

/** What a row shows: what <SessionRow/> is given. */
export type RowInput = SessionRowProps;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Whether Ink measures `text` as we do (then it lays it out where we put it, and cuts nothing). */
const sameWidth = (text: string): boolean => PRINTABLE_ASCII.test(text) || inkTextWidth(text) === textWidth(text);

/**
 * The row's line, styled; null when <SessionRow/>'s layout could differ from the line's: the
 * fixed columns do not fit in the width (Ink would shrink and cut them), or a text Ink measures
 * otherwise than text-width.ts does (it would cut or move it).
 */
export function rowLine({ session: s, selected, marked, picked, since, columns }: RowInput): string | null {
  const st = statusStyle(s);
  const hostCol = columns.host > 0 ? columns.host + 1 : 0;
  const rest = columns.width - FIXED - columns.agent - columns.name - hostCol;
  if (rest < 0 || !listLines.enabled) return null;
  const wt = s.worktree && rest > 4 ? '  ' + cut(worktreeSummary(s.worktree, s.worktreeStats), rest - 2) : '';
  const restAfter = rest - textWidth(wt);
  const pv = restAfter > 4 && s.previewLine ? '  ' + cutWords(s.previewLine.trim(), restAfter) : '';
  const host = hostCol ? fit(s.host ?? LOCAL_HOST, columns.host, true) + ' ' : '';
  const name = fit(s.name, columns.name, true);
  const agent = fit(agentLabel(s), columns.agent, true);
  const status = fit(s.stale ? 'no link' : rowStatusText(s), STATUS);
  for (const t of [host, name, agent, status, wt, pv]) if (!sameWidth(t)) return null;
  // The marker run: what <ShapedRun/> draws (selected, else the attention mark; the pick; the glyph).
  let line = selected ? inkStyle('›', { color: 'cyan', bold: true }) : inkStyle(marked ? ATTENTION_MARK : ' ', { color: ATTENTION_COLOR, bold: true });
  line += inkStyle(picked ? PICK_MARK : ' ', { color: PICK_COLOR, bold: true });
  line += inkStyle(st.glyph, { color: st.color, bold: st.bold }) + ' ';
  if (host) line += inkStyle(host, { color: s.stale ? 'red' : 'gray' });
  line += inkStyle(name, { bold: selected || marked, inverse: selected, color: marked ? ATTENTION_COLOR : undefined }) + ' ';
  line += inkStyle(agent, { color: 'blue' }) + ' ';
  line += s.stale ? inkStyle(status, { color: 'red', dimColor: true }) : inkStyle(status, { color: st.color === 'gray' ? undefined : st.color, dimColor: st.color === 'gray', bold: st.bold });
  line += ' ' + since.padStart(TIME);
  if (wt) line += inkStyle(wt, { color: 'magenta' });
  if (pv) line += inkStyle(pv, { dimColor: true });
  return line;
}

/** Whether two rows show the same (what <SessionRow/>'s memo compares). */
export function sameRow(a: RowInput, b: RowInput): boolean {
  return a.session === b.session && a.selected === b.selected && a.marked === b.marked && a.picked === b.picked && a.since === b.since && a.columns === b.columns;
}
