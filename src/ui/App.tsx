import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { keyModeOf, selectedIndex, selectedSession, visibleSessions } from '../core/board/board-derived.js';
import type { BoardState } from '../core/board/board-types.js';
import type { HintWhen } from '../core/board/keybindings.js';
import { focusedField } from '../core/board/new-form.js';
import { walkthroughShown } from '../core/board/walkthrough.js';
import { sessionState } from '../core/session-state.js';
import type { SessionView } from '../state/host-store.js';
import { BoardBody } from './components/BoardBody.js';
import { DemoWalkthrough, walkthroughLines } from './components/DemoWalkthrough.js';
import { DetailPane } from './components/DetailPane.js';
import { DiffView } from './components/DiffView.js';
import { EmptyBoard } from './components/EmptyBoard.js';
import { FilterBar } from './components/FilterBar.js';
import { Footer } from './components/Footer.js';
import { Header } from './components/Header.js';
import { HelpOverlay } from './components/HelpOverlay.js';
import { NewSessionForm } from './components/NewSessionForm.js';
import { LostBanner } from './components/LostBanner.js';
import { revivable } from './revive-commands.js';
import { PreviewPane } from './components/PreviewPane.js';
import { TypingBar } from './components/TypingBar.js';
import { useBoardControl } from './contexts/ActionsContext.js';
import { useBoardState } from './contexts/BoardStateContext.js';
import { useChatFeed } from './hooks/useChatFeed.js';
import { useFeed } from './hooks/useFeed.js';
import { useLayout } from './hooks/useLayout.js';
import { useTerminalSize } from './hooks/useTerminalSize.js';

/** Each set of the footer hints that apply only sometimes, one object apiece: the footer is memoized on it. */
const HINT_SETS = new Map<string, ReadonlySet<HintWhen>>();

/** The footer hints that apply only sometimes, and whether they do now (the same object while they stay). */
function hintsNow(state: BoardState, sessions: readonly SessionView[]): ReadonlySet<HintWhen> {
  const on: HintWhen[] = [];
  const id = selectedSession(state)?.id;
  const selected = id ? sessions.find((s) => s.id === id) : undefined;
  if (selected && sessionState(selected) === 'waiting') on.push('waiting');
  if (state.marks.length > 0) on.push('marked');
  if (state.overlay.kind === 'new' && ['kind', 'worktree'].includes(focusedField(state.overlay))) on.push('choice');
  const key = on.join(' ');
  let set = HINT_SETS.get(key);
  if (!set) HINT_SETS.set(key, (set = new Set(on)));
  return set;
}

/**
 * Picks what fills the screen: help, the empty board, the list and its pane
 * (a form or the chat on an empty board), or, typing into a session, its
 * screen alone; header and footer around it.
 */
export function App() {
  const { state } = useBoardState();
  const { sessions, preview, hostLines } = useFeed();
  const { pausedRooms } = useChatFeed();
  const { detachLabel } = useBoardControl();
  const { kind } = state.overlay;
  // Lost sessions (a reboot, a logout): a line above the list offers to revive them (R); not over a full-screen view.
  const fullScreen = kind === 'typing' || kind === 'help' || kind === 'diff';
  const lost = fullScreen ? 0 : state.sessions.filter(revivable).length;
  // The demo's sessions are on the board: what it shows and the keys that matter, until h hides it.
  const { cols } = useTerminalSize();
  const demoShown = !fullScreen && kind !== 'new' && walkthroughShown(state);
  const walkthrough = useMemo(() => (demoShown ? walkthroughLines(Math.max(20, cols), detachLabel) : []), [demoShown, cols, detachLabel]);
  const layout = useLayout((lost > 0 ? 1 : 0) + walkthrough.length);
  const shown = visibleSessions(state).length;
  const index = selectedIndex(state);
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
    : state.sessions.length > 0 ? <BoardBody state={state} sessions={sessions} preview={preview} layout={layout} />
    : kind === 'chat' ? <DetailPane state={state} selected={null} preview={null} rows={layout.bodyRows - 1} width={layout.width} />
    : <EmptyBoard rows={layout.bodyRows} width={layout.width} />;
  return (
    <Box flexDirection="column" width={layout.width} height={layout.height}>
      <Header sessions={state.sessions} shown={shown} filter={state.filter} position={position} pausedRooms={pausedRooms} unseen={state.attention.length} marked={state.marks.length} hostLines={hostLines} width={layout.width} />
      {lost > 0 ? <LostBanner lost={lost} width={layout.width} /> : null}
      {walkthrough.length > 0 ? <DemoWalkthrough lines={walkthrough} width={layout.width} /> : null}
      <Box height={layout.bodyRows} flexDirection="column">{body}</Box>
      {kind === 'filter' ? (
        <FilterBar filter={state.filter} shown={shown} total={state.sessions.length} width={layout.width} />
      ) : (
        <Footer mode={keyModeOf(state)} message={state.message} now={hintsNow(state, sessions)} width={layout.width} />
      )}
    </Box>
  );
}
