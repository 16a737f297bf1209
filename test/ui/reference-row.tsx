/**
 * A session row as Ink lays out its parts when they are <Text>s in boxes: what the list drew
 * before its rows were strings (src/ui/ink/list-lines.ts), kept here as the reference the rows
 * are compared with, cell by cell (test/ui/list-lines.test.tsx). The texts are cut and fitted as
 * the row's are (Ink's measure); what Ink does here is the rest: where each part goes, the styles,
 * and the cut of a list too narrow for its columns.
 */
import { Box, render, Text } from 'ink';
import { agentLabel } from '../../src/core/agents/agent-kinds.js';
import { rowStatusText } from '../../src/core/board/board-derived.js';
import { worktreeSummary } from '../../src/core/worktree/worktree.js';
import { inkOwnGet } from '../../src/ui/ink/frame-cache.js';
import { inkMeasure as m, rowText } from '../../src/ui/ink/ink-width.js';
import type { RowInput } from '../../src/ui/ink/list-lines.js';
import { FIXED, LOCAL_HOST, PICK_COLOR, PICK_MARK, STATUS, TIME } from '../../src/ui/row-columns.js';
import { ATTENTION_COLOR, ATTENTION_MARK, statusStyle } from '../../src/ui/status-style.js';
import InkOutput from '../../node_modules/ink/build/output.js';
import { cells, FakeStdin, FakeStdout } from './harness.js';

function ReferenceRow({ session: s, selected, marked, picked, since, columns }: RowInput) {
  const st = statusStyle(s);
  const hostCol = columns.host > 0 ? columns.host + 1 : 0;
  const rest = columns.width - FIXED - columns.agent - columns.name - hostCol;
  const wt = s.worktree && rest > 4 ? '  ' + m.cut(rowText(worktreeSummary(s.worktree, s.worktreeStats)), rest - 2) : '';
  const restAfter = rest - m.width(wt);
  const last = s.previewLine ? rowText(s.previewLine).trim() : '';
  const mark = selected ? { text: '›', color: 'cyan' } : { text: marked ? ATTENTION_MARK : ' ', color: ATTENTION_COLOR };
  return (
    <Box width={columns.width} height={1}>
      <Box flexShrink={0}>
        <Text>
          <Text color={mark.color} bold>{mark.text}</Text>
          <Text color={PICK_COLOR} bold>{picked ? PICK_MARK : ' '}</Text>
          <Text color={st.color} bold={st.bold}>{st.glyph}</Text>{' '}
        </Text>
      </Box>
      <Text wrap="truncate-end">
        {hostCol ? <Text color={s.stale ? 'red' : 'gray'}>{m.fit(rowText(s.host ?? LOCAL_HOST), columns.host, true)} </Text> : null}
        <Text bold={selected || marked} inverse={selected} color={marked ? ATTENTION_COLOR : undefined}>{m.fit(rowText(s.name), columns.name, true)}</Text>{' '}
        <Text color="blue">{m.fit(rowText(agentLabel(s)), columns.agent, true)}</Text>{' '}
        {s.stale ? (
          <Text color="red" dimColor>{m.fit('no link', STATUS)}</Text>
        ) : (
          <Text color={st.color === 'gray' ? undefined : st.color} dimColor={st.color === 'gray'} bold={st.bold}>{m.fit(rowStatusText(s), STATUS)}</Text>
        )}{' '}
        <Text>{since.padStart(TIME)}</Text>
      </Text>
      {wt ? <Text color="magenta" wrap="truncate-end">{wt}</Text> : null}
      {restAfter > 4 && last ? <Text dimColor wrap="truncate-end">{'  ' + m.cutWords(last, restAfter)}</Text> : null}
    </Box>
  );
}

/**
 * The cells of `rows` drawn as reference rows by Ink alone (its own frame, not the frame cache),
 * one list row a screen row; `border`: with the board's side-by-side border after the list (a row
 * Ink measures wider than the terminal draws pulls what follows it to the left).
 */
export async function referenceCells(rows: readonly RowInput[], width: number, border: boolean): Promise<string[]> {
  const out = new FakeStdout(width + 2, rows.length + 1);
  const stdin = new FakeStdin();
  const Output = InkOutput as unknown as { prototype: { get: unknown } };
  const cached = Output.prototype.get;
  Output.prototype.get = inkOwnGet;
  try {
    const ink = render(
      <Box flexDirection="row" height={rows.length}>
        <Box flexDirection="column" width={width}>
          {rows.map((r) => (
            <ReferenceRow key={r.session.id} {...r} />
          ))}
        </Box>
        {border ? <Box width={2} flexShrink={0} borderStyle="single" borderTop={false} borderBottom={false} borderRight={false} borderDimColor /> : null}
      </Box>,
      { stdin: stdin as never, stdout: out as never, stderr: out as never, exitOnCtrlC: false, patchConsole: false },
    );
    await new Promise((r) => setTimeout(r, 50));
    await out.flush();
    const got = cells(out).slice(0, rows.length);
    ink.unmount();
    await ink.waitUntilExit();
    return got;
  } finally {
    Output.prototype.get = cached;
  }
}
