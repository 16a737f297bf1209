/** The board's body: the session list with the detail pane below it or beside it. */
import { Box } from 'ink';
import type { BoardState } from '../../core/board/board-types.js';
import type { PreviewScreen } from '../../client/feed/board-api.js';
import type { BoardLayout } from '../layout.js';
import type { SessionView } from '../../state/host-store.js';
import { DetailPane } from './DetailPane.js';
import { SessionList } from './SessionList.js';

export interface BoardBodyProps {
  state: BoardState;
  sessions: readonly SessionView[];
  preview: PreviewScreen | null;
  layout: BoardLayout;
}

/** The list with the detail pane below it (narrow terminals) or beside it (wide ones). */
export function BoardBody({ state, sessions, preview, layout }: BoardBodyProps) {
  const selected = sessions.find((s) => s.id === state.selectedId) ?? null;
  const list = <SessionList state={state} sessions={sessions} rows={layout.listRows} width={layout.listWidth} />;
  const detail = <DetailPane state={state} selected={selected} preview={preview} rows={layout.previewRows} width={layout.previewWidth} />;
  if (layout.sideBySide) {
    return (
      <Box flexDirection="row" height={layout.bodyRows}>
        {list}
        <Box width={2} flexShrink={0} borderStyle="single" borderTop={false} borderBottom={false} borderRight={false} borderDimColor />
        {detail}
      </Box>
    );
  }
  return (
    <Box flexDirection="column" height={layout.bodyRows}>
      {list}
      {detail}
    </Box>
  );
}
