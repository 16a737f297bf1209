/** The diff review: a session's files and their counts, the diff with a cursor, the comments and the comment field. */
import { Box, Text } from 'ink';
import { useEffect, useMemo } from 'react';
import { unsentComments } from '../../core/board/diff-board.js';
import type { DiffComment, DiffOverlay } from '../../core/board/board-types.js';
import { fileCounts, fileLabel } from '../../core/worktree/diff-model.js';
import { commentPlace, fileAt } from '../../core/board/diff-view.js';
import { BINDINGS } from '../../core/board/keybindings.js';
import { useBoardState } from '../contexts/BoardStateContext.js';
import { cut, fit } from '../text-width.js';
import { DiffLines } from './DiffLines.js';
import { PaneTitle } from './PaneTitle.js';
import { TextField } from './TextField.js';

export interface DiffViewProps {
  diff: DiffOverlay;
  rows: number;
  width: number;
}

/** From this width on, the file list goes beside the diff. */
const SIDE_COLS = 110;
const MAX_COMMENT_ROWS = 4;

const STATUS: Record<DiffComment['status'], { mark: string; color?: string }> = {
  new: { mark: '·' },
  sending: { mark: '…', color: 'yellow' },
  sent: { mark: '✓', color: 'green' },
  unconfirmed: { mark: '?', color: 'yellow' },
};

function FileList({ diff: o, rows, width }: DiffViewProps) {
  const files = o.model!.files;
  const current = fileAt(o.rows!, o.cursor);
  const top = Math.max(0, Math.min(current - Math.floor(rows / 2), files.length - rows));
  return (
    <Box flexDirection="column" width={width} flexShrink={0}>
      {files.slice(top, top + rows).map((f, i) => {
        const counts = fileCounts(f);
        const name = cut(fileLabel(f), Math.max(1, width - counts.length - 2));
        return (
          <Text key={top + i} bold={top + i === current} inverse={top + i === current} wrap="truncate-end">
            {fit(`${name} `, width - counts.length - 1)}
            <Text color={f.binary ? 'gray' : 'green'}>{counts}</Text>
          </Text>
        );
      })}
    </Box>
  );
}

function Comments({ diff: o, rows, width }: DiffViewProps) {
  const list = o.comments.slice(-rows);
  return (
    <Box flexDirection="column" width={width}>
      {list.map((c, i) => (
        <Text key={i} wrap="truncate-end">
          <Text color={STATUS[c.status].color}>{`${STATUS[c.status].mark} `}</Text>
          <Text color="cyan">{commentPlace(c)}</Text>
          {`: ${c.text}`}
        </Text>
      ))}
    </Box>
  );
}

function Keys({ width }: { width: number }) {
  return (
    <Box flexDirection="column" width={width}>
      {[...BINDINGS.diff, ...BINDINGS['diff-comment']].map((b, i) => (
        <Text key={i} wrap="truncate-end">
          <Text color="cyan">{b.label.padEnd(12)}</Text>
          {b.help}
        </Text>
      ))}
    </Box>
  );
}

/**
 * A session's diff over the whole body: a title, the files with their counts
 * (beside the diff on wide terminals, above it on narrow ones), the diff's
 * window with a cursor line, the comments, and the comment field.
 */
export function DiffView({ diff: o, rows, width }: DiffViewProps) {
  const { dispatch } = useBoardState();
  const model = o.model;
  const side = width >= SIDE_COLS;
  const listWidth = side ? Math.min(44, Math.floor(width * 0.3)) : width;
  const fileRows = !model || o.keys ? 0 : side ? rows - 1 : Math.min(model.files.length, Math.max(1, Math.floor(rows * 0.2)));
  const commentRows = Math.min(o.comments.length, MAX_COMMENT_ROWS) + (o.draft ? 1 : 0);
  const diffRows = Math.max(1, rows - 1 - commentRows - (side ? 0 : fileRows));
  const diffWidth = side ? width - listWidth - 1 : width;
  useEffect(() => {
    dispatch({ type: 'diff-viewport', rows: diffRows });
  }, [diffRows, dispatch]);
  const commented = useMemo(() => new Set(o.comments.map(commentPlace)), [o.comments]);
  const unsent = unsentComments(o).length;
  const title = model ? `diff of ${o.name}: ${model.files.length} file${model.files.length === 1 ? '' : 's'} +${model.added} -${model.removed}${o.comments.length ? `, ${o.comments.length} comment${o.comments.length === 1 ? '' : 's'} (${unsent} unsent)` : ''}` : `diff of ${o.name}`;
  let body;
  if (o.error) body = <Text color="red" wrap="truncate-end">{`cannot diff ${o.name}: ${o.error}`}</Text>;
  else if (!model || !o.rows) body = <Text dimColor>{`reading ${o.name}'s changes…`}</Text>;
  else if (o.keys) body = <Keys width={width} />;
  else if (model.files.length === 0) body = <Text dimColor>{`${o.name} has changed nothing against its base`}</Text>;
  else {
    const lines = <DiffLines model={model} rows={o.rows.rows} top={o.top} height={diffRows} cursor={o.cursor} commented={commented} width={diffWidth} />;
    body = side ? (
      <Box flexDirection="row" height={diffRows}>
        <FileList diff={o} rows={fileRows} width={listWidth} />
        <Box width={1} flexShrink={0} />
        <Box flexDirection="column" width={diffWidth}>{lines}</Box>
      </Box>
    ) : (
      <Box flexDirection="column">
        <FileList diff={o} rows={fileRows} width={width} />
        <Box flexDirection="column" height={diffRows}>{lines}</Box>
      </Box>
    );
  }
  return (
    <Box flexDirection="column" width={width} height={rows}>
      <PaneTitle text={title} width={width} />
      <Box flexDirection="column" height={rows - 1 - commentRows} overflow="hidden">{body}</Box>
      <Comments diff={o} rows={MAX_COMMENT_ROWS} width={width} />
      {o.draft ? (
        <Text wrap="truncate-end">
          <Text color="cyan">{`comment on ${commentPlace(o.draft.target)}: `}</Text>
          <TextField value={o.draft.text} focused width={Math.max(1, width - commentPlace(o.draft.target).length - 14)} />
        </Text>
      ) : null}
    </Box>
  );
}
