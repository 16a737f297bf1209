/**
 * A session row as one styled string: the cells and styles Ink would draw for the row's parts as
 * <Text>s in a row of boxes (the marker run, then host, name, agent, state and age in one text cut
 * at the end when the list is too narrow for them, then the worktree and the last screen line),
 * built without a tree of Ink nodes. Ink goes through every node of the screen on every frame
 * (squashes each text, measures it with string-width, reads its box from Yoga), and a row was
 * eleven of them: for 47 rows that walk, the layout of those nodes and React's pass over them
 * were most of a frame when one row had changed. The list draws its rows as the lines of one text
 * (src/ui/components/SessionList.tsx); this builds a line, measured as Ink measures (./ink-width.ts).
 */
import { agentLabel } from '../../core/agents/agent-kinds.js';
import { rowStatusText } from '../../core/board/board-derived.js';
import { usageCell } from '../../core/usage/usage-text.js';
import { worktreeSummary } from '../../core/worktree/worktree.js';
import type { SessionView } from '../../state/host-store.js';
import { FIXED, LOCAL_HOST, MARKER, PICK_COLOR, PICK_MARK, SANDBOX_COLOR, SANDBOX_MARK_CELLS, STATUS, TIME, type RowColumns } from '../row-columns.js';
import { SANDBOX_MARK } from '../../core/sandbox/sandbox-text.js';
import { ATTENTION_COLOR, ATTENTION_MARK, statusStyle } from '../status-style.js';
import { inkStyle, type InkStyle } from './internals.js';
import { inkMeasure as m, rowText } from './ink-width.js';

/** What a row shows. */
export interface RowInput {
  session: SessionView;
  selected: boolean;
  /** It rang and the user has not looked yet: `!` in the marker column (unless selected) and its name in the attention colour. */
  marked: boolean;
  /** The user marked it for the prompt line: `*` after the marker. */
  picked: boolean;
  /** How long since its last output, as shown ("5s"): the list works it out, so a clock tick redraws only the rows whose age reads differently. */
  since: string;
  /** A limited row's state with its countdown ("limited · 2h13m", src/core/usage/limit-state.ts), worked out by the list as `since` is; '' otherwise. */
  limit: string;
  /** The same object while the widths stay (useRowColumns). */
  columns: RowColumns;
}

/** A piece of a line and how it looks. */
interface Part {
  text: string;
  style?: InkStyle;
}

const styled = (p: Part) => (p.style ? inkStyle(p.text, p.style) : p.text);

/**
 * `parts` in `cells`, cut at the end as Ink cuts a <Text wrap="truncate-end"> (cli-truncate): to
 * one cell less, then an ellipsis in the style of the last character kept.
 */
function truncateEnd(parts: readonly Part[], cells: number): string {
  if (parts.reduce((w, p) => w + m.width(p.text), 0) <= cells) return parts.map(styled).join('');
  if (cells <= 0) return '';
  const kept: Part[] = [];
  let left = cells - 1;
  for (const p of parts) {
    const text = m.cut(p.text, left);
    if (!text) break;
    kept.push({ ...p, text });
    left -= m.width(text);
  }
  const last = kept.pop() ?? { text: '' };
  return [...kept, { ...last, text: last.text + '…' }].map(styled).join('');
}

/**
 * The row's line, styled: marker, mark, glyph, host, name, agent, state, time since its last
 * output, then a worktree session's branch and counts (docs/worktrees.md) and its last screen line.
 */
export function rowLine({ session: s, selected, marked, picked, since, limit, columns }: RowInput): string {
  const st = statusStyle(s);
  const hostCol = columns.host > 0 ? columns.host + 1 : 0;
  let rest = columns.width - FIXED - (columns.status - STATUS) - columns.agent - columns.name - hostCol;
  // The marker run: the selection (else the attention mark), the pick, the glyph.
  let line = selected ? inkStyle('›', { color: 'cyan', bold: true }) : inkStyle(marked ? ATTENTION_MARK : ' ', { color: ATTENTION_COLOR, bold: true });
  line += inkStyle(picked ? PICK_MARK : ' ', { color: PICK_COLOR, bold: true });
  line += inkStyle(st.glyph, { color: st.color, bold: st.bold }) + ' ';
  const main: Part[] = [];
  if (hostCol) main.push({ text: m.fit(rowText(s.host ?? LOCAL_HOST), columns.host, true) + ' ', style: { color: s.stale ? 'red' : 'gray' } });
  const nameStyle: InkStyle = { bold: selected || marked, inverse: selected, color: marked ? ATTENTION_COLOR : undefined };
  if (s.sandbox) {
    // A sandboxed session's mark right after its name, inside the name column (a long name is cut for it).
    const name = m.fit(rowText(s.name), columns.name - SANDBOX_MARK_CELLS, true).trimEnd();
    main.push({ text: name, style: nameStyle }, { text: ' ' + SANDBOX_MARK, style: { color: SANDBOX_COLOR } }, { text: ' '.repeat(Math.max(0, columns.name - m.width(name) - SANDBOX_MARK_CELLS)) + ' ' });
  } else main.push({ text: m.fit(rowText(s.name), columns.name, true), style: nameStyle }, { text: ' ' });
  main.push({ text: m.fit(rowText(agentLabel(s)), columns.agent, true), style: { color: 'blue' } }, { text: ' ' });
  const status = m.fit(s.stale ? 'no link' : limit || rowStatusText(s), columns.status);
  main.push({ text: status, style: s.stale ? { color: 'red', dimColor: true } : { color: st.color === 'gray' ? undefined : st.color, dimColor: st.color === 'gray', bold: st.bold } });
  main.push({ text: ' ' + since.padStart(TIME) });
  // A list too narrow for the fixed columns: they are cut, and nothing comes after them.
  if (rest < 0) return line + truncateEnd(main, columns.width - MARKER);
  line += main.map(styled).join('');
  // Tokens and cost, when shown (the `u` key): before the worktree and the last line, so it is never cut first.
  const usage = columns.usage > 0 && rest > columns.usage ? '  ' + m.fit(usageCell(s.usage), columns.usage - 2) : '';
  if (usage) line += inkStyle(usage, { color: 'yellow' });
  rest -= m.width(usage);
  const wt = s.worktree && rest > 4 ? '  ' + m.cut(rowText(worktreeSummary(s.worktree, s.worktreeStats)), rest - 2) : '';
  if (wt) line += inkStyle(wt, { color: 'magenta' });
  // The last line is prose as often as not (an agent's status): cut after a whole word.
  const restAfter = rest - m.width(wt);
  const last = s.previewLine ? rowText(s.previewLine).trim() : '';
  if (restAfter > 4 && last) line += inkStyle('  ' + m.cutWords(last, restAfter), { dimColor: true });
  return line;
}

/** Whether two rows show the same: a row's line is built again only when it does not. */
export function sameRow(a: RowInput, b: RowInput): boolean {
  return a.session === b.session && a.selected === b.selected && a.marked === b.marked && a.picked === b.picked && a.since === b.since && a.limit === b.limit && a.columns === b.columns;
}
