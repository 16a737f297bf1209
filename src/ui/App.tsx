import { Box } from 'ink';
import { keyModeOf, selectedIndex, visibleSessions } from '../core/board-state.js';
import { BoardBody } from './components/BoardBody.js';
import { DetailPane } from './components/DetailPane.js';
import { EmptyBoard } from './components/EmptyBoard.js';
import { FilterBar } from './components/FilterBar.js';
import { Footer } from './components/Footer.js';
import { Header } from './components/Header.js';
import { HelpOverlay } from './components/HelpOverlay.js';
import { useBoardControl } from './contexts/ActionsContext.js';
import { useBoardState } from './contexts/BoardStateContext.js';
import { useChatFeed } from './hooks/useChatFeed.js';
import { useFeed } from './hooks/useFeed.js';
import { useLayout } from './hooks/useLayout.js';

/** Picks what fills the screen: help, the empty board, or the list and its pane (a form or the chat on an empty board); header and footer around it. */
export function App() {
  const { state } = useBoardState();
  const { sessions, preview } = useFeed();
  const { pausedRooms } = useChatFeed();
  const { detachLabel } = useBoardControl();
  const layout = useLayout();
  const shown = visibleSessions(state).length;
  const index = selectedIndex(state);
  const position = shown > layout.listRows && index >= 0 ? `${index + 1}/${shown}` : null;
  const { kind } = state.overlay;
  const body =
    kind === 'help' ? <HelpOverlay detachLabel={detachLabel} rows={layout.bodyRows} width={layout.width} />
    : state.sessions.length > 0 ? <BoardBody state={state} sessions={sessions} preview={preview} layout={layout} />
    : kind === 'new' || kind === 'chat' ? <DetailPane state={state} selected={null} preview={null} rows={layout.bodyRows - 1} width={kind === 'new' ? Math.min(layout.width, 80) : layout.width} />
    : <EmptyBoard rows={layout.bodyRows} width={layout.width} />;
  return (
    <Box flexDirection="column" width={layout.width} height={layout.height}>
      <Header sessions={state.sessions} shown={shown} filter={state.filter} position={position} pausedRooms={pausedRooms} unseen={state.attention.length} width={layout.width} />
      <Box height={layout.bodyRows} flexDirection="column">{body}</Box>
      {kind === 'filter' ? (
        <FilterBar filter={state.filter} shown={shown} total={state.sessions.length} width={layout.width} />
      ) : (
        <Footer mode={keyModeOf(state)} message={state.message} width={layout.width} />
      )}
    </Box>
  );
}
