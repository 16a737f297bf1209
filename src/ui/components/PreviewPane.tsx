/** The selected session's screen, cropped to fit, under its title line. */
import { Box, Text } from 'ink';
import { memo } from 'react';
import { agentLabel } from '../../core/agents/agent-kinds.js';
import { statusText } from '../../core/board/board-derived.js';
import { dialogText } from '../../core/agents/dialog-text.js';
import { sessionState } from '../../core/session-state.js';
import { usageCell } from '../../core/usage/usage-text.js';
import { worktreeSummary } from '../../core/worktree/worktree.js';
import type { PreviewScreen } from '../../client/feed/board-api.js';
import type { SessionView } from '../../state/host-store.js';
import { cropPreview, cropTop } from '../preview-crop.js';
import { statusStyle } from '../status-style.js';
import { cut, textWidth } from '../text-width.js';
import { DialogCard, dialogCardRows } from './DialogCard.js';
import { ShapedLine, ShapedRun } from '../ink/ShapedText.js';

export interface PreviewPaneProps {
  session: SessionView | null;
  preview: PreviewScreen | null;
  /** Screen lines the pane shows (its title line comes on top). */
  rows: number;
  width: number;
  /** Draw the session's cursor: the board types into it. */
  cursor?: boolean;
}

/**
 * The selected session's screen, cropped to fit, under a title line. A
 * waiting session's dialog (question and options) comes first, on top of the
 * screen, where the digits that answer it are explained. Memoized: another
 * session's change does not draw it, and a new screen draws only the lines
 * that changed.
 */
export const PreviewPane = memo(function PreviewPane({ session, preview, rows, width, cursor = false }: PreviewPaneProps) {
  const screen = session && preview?.id === session.id ? preview : null;
  const size = screen ? `${screen.cols}x${screen.rows}${screen.final ? ', last screen' : ''}` : '';
  const dialog = screen && session && sessionState(session) === 'waiting' ? dialogText(screen.lines) : null;
  const cardRows = dialog && dialogCardRows(dialog) < rows ? dialogCardRows(dialog) : 0;
  const screenRows = rows - cardRows;
  return (
    <Box flexDirection="column" width={width} height={rows + 1}>
      {session ? <Title session={session} size={size} width={width} /> : <Text dimColor>{rule('──  ', width)}</Text>}
      {dialog && cardRows > 0 ? <DialogCard dialog={dialog} width={width} /> : null}
      {screen ? (
        <ScreenLines lines={cropPreview(screen, width, screenRows)} width={width} cursor={cursor ? { x: screen.cursorX, y: screen.cursorY - cropTop(screen, screenRows) } : null} />
      ) : (
        <Text dimColor>{placeholder(session)}</Text>
      )}
    </Box>
  );
});

function ScreenLines({ lines, width, cursor }: { lines: string[]; width: number; cursor: { x: number; y: number } | null }) {
  // The cursor's row may be past the last row with text (a prompt on a blank line).
  const shown = cursor && cursor.y >= lines.length ? [...lines, ...Array<string>(cursor.y - lines.length + 1).fill('')] : lines;
  return (
    <>
      {shown.map((line, i) => (i === cursor?.y ? <CursorLine key={i} line={line} x={cursor.x} /> : <ScreenLine key={i} line={line} width={width} />))}
    </>
  );
}

/** One screen row: drawn again only when its text changed; shaped as ASCII for Ink's measure (an agent's screen is mostly box drawing). */
const ScreenLine = memo(function ScreenLine({ line, width }: { line: string; width: number }) {
  return <ShapedLine line={line || ' '} width={width} />;
});

/** A screen row with the cell under the cursor drawn inverse. */
const CursorLine = memo(function CursorLine({ line, x }: { line: string; x: number }) {
  const before = cut(line, x);
  const pad = ' '.repeat(Math.max(0, x - textWidth(before)));
  const rest = line.slice(before.length);
  const at = rest ? String.fromCodePoint(rest.codePointAt(0)!) : ' ';
  return (
    <Text wrap="truncate-end">
      {before + pad}
      <Text inverse>{at}</Text>
      {rest.slice(at.length)}
    </Text>
  );
});

/** `── NAME (STATE) AGENT COLSxROWS TOKENS $COST ⎇ BRANCH +A -R ... ───`, the state in its colour; the agent unless it is a plain shell; a worktree session's summary last (cut first). */
function Title({ session, size, width }: { session: SessionView; size: string; width: number }) {
  const head = `── ${session.name} `;
  const state = `(${statusText(session)})`;
  const agent = agentLabel(session);
  const wt = session.worktree ? ` ${worktreeSummary(session.worktree, session.worktreeStats)}` : '';
  // What it spent so far (docs/usage.md), once its runner read its transcript.
  const usage = session.usage ? ` ${usageCell(session.usage)}` : '';
  const tail = `${agent === 'shell' ? '' : ` ${agent}`}${size ? ` ${size}` : ''}${usage}${wt} `;
  const full = head + state + tail;
  if (textWidth(full) > width) return <Text dimColor>{rule(full, width)}</Text>;
  const st = statusStyle(session);
  const grey = st.color === 'gray';
  // The line to the edge is a border, not text: Ink measures every text on every frame, and a
  // hundred box-drawing characters take string-width's slow path (about half a millisecond).
  return (
    <Box width={width} height={1}>
      {/* It fits (above); shaped for Ink's measure (the title's line). */}
      <ShapedRun
        parts={[
          { text: head, dimColor: true },
          { text: state, color: grey ? undefined : st.color, dimColor: grey, bold: st.bold },
          { text: tail, dimColor: true },
        ]}
        wrap="truncate-end"
      />
      <Box flexGrow={1} height={1} borderStyle="single" borderTop borderBottom={false} borderLeft={false} borderRight={false} borderDimColor />
    </Box>
  );
}

/** The title, then a line to the pane's edge. */
function rule(title: string, width: number): string {
  const head = cut(title, width);
  return head + '─'.repeat(Math.max(0, width - textWidth(head)));
}

function placeholder(s: SessionView | null): string {
  if (!s) return '';
  if (s.status === 'lost') return 'its runner is gone: no screen to show (R revives it)';
  if (s.status === 'exited') return 'no last screen was saved';
  return 'waiting for the screen…';
}
