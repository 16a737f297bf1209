/** The pane beside or below the list: what is open over the board, else the selected session's screen. */
import type { BoardState } from '../../core/board/board-types.js';
import type { PreviewScreen } from '../../client/feed/board-api.js';
import type { SessionView } from '../../state/host-store.js';
import { ChatPane } from './ChatPane.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { ExplainPane } from './ExplainPane.js';
import { PreviewPane } from './PreviewPane.js';
import { PromptPane } from './PromptPane.js';
import { RenameForm } from './RenameForm.js';

export interface DetailPaneProps {
  state: BoardState;
  selected: SessionView | null;
  preview: PreviewScreen | null;
  rows: number;
  width: number;
}

/** Beside or below the list: the rename form, question, chat, prompt line or explanation, else the selected session's screen (the new-session form takes the body: App). */
export function DetailPane({ state, selected, preview, rows, width }: DetailPaneProps) {
  const o = state.overlay;
  switch (o.kind) {
    case 'rename':
      return <RenameForm oldName={o.name} value={o.value} pending={o.pending} error={o.error} width={width} />;
    case 'confirm-kill':
      return <ConfirmDialog name={o.name} width={width} />;
    case 'chat':
      return <ChatPane chat={o} rows={rows} width={width} />;
    case 'prompt':
      return <PromptPane prompt={o} rows={rows} width={width} />;
    case 'explain':
      return <ExplainPane explain={o} session={selected} rows={rows} width={width} usage={selected?.id === o.id ? selected.usage : undefined} />;
    default:
      return <PreviewPane session={selected} preview={preview} rows={rows} width={width} />;
  }
}
