import { Box, Text } from 'ink';
import { keyModeOf, selectedIndex, visibleSessions } from '../core/board/board-derived.js';
import { BoardBody } from './components/BoardBody.js';
import { DemoWalkthrough } from './components/DemoWalkthrough.js';
import { DetailPane } from './components/DetailPane.js';
import { DiffView } from './components/DiffView.js';
import { EmptyBoard } from './components/EmptyBoard.js';
import { FilterBar } from './components/FilterBar.js';
import { Footer } from './components/Footer.js';
import { Header } from './components/Header.js';
import { HelpOverlay } from './components/HelpOverlay.js';
import { NewSessionForm } from './components/NewSessionForm.js';
import { LostBanner } from './components/LostBanner.js';
import { PreviewPane } from './components/PreviewPane.js';
import { TypingBar } from './components/TypingBar.js';
import { useBoardControl } from './contexts/ActionsContext.js';
import { useBoardState } from './contexts/BoardStateContext.js';
import { useBanners } from './hooks/useBanners.js';
import { useChatFeed } from './hooks/useChatFeed.js';
import { useFeed } from './hooks/useFeed.js';
import { useFooterHints } from './hooks/useFooterHints.js';
import { useLayout } from './hooks/useLayout.js';

/**
 * Picks what fills the screen: help, the empty board, the list and its pane
 * (a form or the chat on an empty board), or, typing into a session, its
 * screen alone; header and footer around it.
 */
export function App() {
  const { state, sessions } = useBoardState();
  const { preview, hostLines } = useFeed();
  const { pausedRooms } = useChatFeed();
  const { detachLabel } = useBoardControl();
  const hints = useFooterHints();
  const { kind } = state.overlay;
  const { lost, walkthrough } = useBanners(kind === 'typing' || kind === 'help' || kind === 'diff', kind === 'new');
  const layout = useLayout((lost > 0 ? 1 : 0) + walkthrough.length);
  const shown = visibleSessions(state, sessions).length;
  const index = selectedIndex(state, sessions);
  const position = shown > layout.listRows && index >= 0 ? `${index + 1}/${shown}` : null;
  if (state.overlay.kind === 'typing') {
    const typing = state.overlay;
    const view = sessions.find((s) => s.id === typing.id) ?? null;
    return (
      <Box flexDirection="column" width={layout.width} height={layout.height}>
        <TypingBar name={typing.name} detachLabel={detachLabel} width={layout.width} />
        <Box height={layout.bodyRows} flexDirection="column">
          <PreviewPane session={view} preview={preview} rows={layout.bodyRows - 1} width={layout.width} cursor />
        </Box>
        <Text dimColor wrap="truncate-end">{`keys go to ${typing.name} as typed; ${detachLabel} back to the board`}</Text>
      </Box>
    );
  }
  const body =
    state.overlay.kind === 'diff' ? <DiffView diff={state.overlay} rows={layout.bodyRows} width={layout.width} />
    : kind === 'help' ? <HelpOverlay detachLabel={detachLabel} rows={layout.bodyRows} width={layout.width} />
    // The new-session form takes the body: it has seven fields and what it will run to show.
    : state.overlay.kind === 'new' ? <NewSessionForm form={state.overlay} width={Math.min(layout.width, 100)} />
    : sessions.length > 0 ? <BoardBody state={state} sessions={sessions} preview={preview} layout={layout} />
    : kind === 'chat' ? <DetailPane state={state} selected={null} preview={null} rows={layout.bodyRows - 1} width={layout.width} />
    : <EmptyBoard rows={layout.bodyRows} width={layout.width} />;
  return (
    <Box flexDirection="column" width={layout.width} height={layout.height}>
      <Header sessions={sessions} shown={shown} filter={state.filter} position={position} pausedRooms={pausedRooms} unseen={state.attention.length} marked={state.marks.length} hostLines={hostLines} width={layout.width} />
      {lost > 0 ? <LostBanner lost={lost} width={layout.width} /> : null}
      {walkthrough.length > 0 ? <DemoWalkthrough lines={walkthrough} width={layout.width} /> : null}
      <Box height={layout.bodyRows} flexDirection="column">{body}</Box>
      {kind === 'filter' ? (
        <FilterBar filter={state.filter} shown={shown} total={sessions.length} width={layout.width} />
      ) : (
        <Footer mode={keyModeOf(state)} message={state.message} now={hints} width={layout.width} />
      )}
    </Box>
  );
}
