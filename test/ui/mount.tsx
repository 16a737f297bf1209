/** Mounts the board (the real <Board/>) with fakes, in an emulated terminal. */
import { render } from 'ink';
import { Board } from '../../src/ui/Board.js';
import { BOARD_INK_OPTIONS } from '../../src/ui/ink/options.js';
import { RenderCountContext, type RenderCounter } from '../../src/ui/contexts/RenderCountContext.js';
import type { BoardFeed } from '../../src/client/feed/board-api.js';
import type { BoardState } from '../../src/core/board/board-types.js';
import type { SessionView } from '../../src/state/host-store.js';
import type { LeaveRequest } from '../../src/ui/contexts/ActionsContext.js';
import { FakeActions, FakeFeed, type FakeChatFeed } from './fakes.js';
import { FakeStdin, FakeStdout } from './harness.js';
import { REAL_TIME } from '../helpers/real-time.js';
import type { Time } from '../../src/core/clock.js';

export interface Mounted {
  out: FakeStdout;
  stdin: FakeStdin;
  feed: BoardFeed;
  actions: FakeActions;
  /** Each leave: the request, the board's state and the list it was over, and the keys typed after. */
  left: { req: LeaveRequest; state: BoardState; sessions: readonly SessionView[]; typeahead: string }[];
  /** How many times Ink has drawn the board (each draw lays out and renders the whole screen). */
  draws(): number;
  unmount(): Promise<void>;
}

export function mountBoard<F extends BoardFeed = FakeFeed>(
  feed: F,
  /** `counter`: hears every render of the board's parts (src/ui/contexts/RenderCountContext.ts). */
  opts: { cols?: number; rows?: number; actions?: FakeActions; initialState?: BoardState; chat?: FakeChatFeed; counter?: RenderCounter; autoRevive?: boolean; rememberWalkthroughHidden?: () => void; time?: Time } = {},
): Mounted & { feed: F } {
  const out = new FakeStdout(opts.cols ?? 80, opts.rows ?? 24);
  const stdin = new FakeStdin();
  const actions = opts.actions ?? new FakeActions();
  const left: Mounted['left'] = [];
  let draws = 0;
  out.write('\x1b[H\x1b[2J');
  const ink = render(
    <RenderCountContext.Provider value={opts.counter ?? null}>
    <Board
      feed={feed}
      chat={opts.chat}
      actions={actions}
      time={opts.time ?? REAL_TIME}
      newDefaults={{ kind: 'shell', name: '', command: '/bin/bash', cwd: '/home/me', room: 'default', worktree: false, branch: '' }}
      detachLabel="Ctrl-\"
      initialView={opts.initialState && { sessions: [], state: opts.initialState }}
      autoRevive={opts.autoRevive}
      rememberWalkthroughHidden={opts.rememberWalkthroughHidden}
      onLeave={(req, view, typeahead) => left.push({ req, state: view.state, sessions: view.sessions, typeahead })}
    />
    </RenderCountContext.Provider>,
    { stdin: stdin as never, stdout: out as never, stderr: out as never, exitOnCtrlC: false, patchConsole: false, ...BOARD_INK_OPTIONS, onRender: () => void draws++ },
  );
  const exited = ink.waitUntilExit(); // before any exit: asked later, it would never settle
  return {
    out,
    stdin,
    feed,
    actions,
    left,
    draws: () => draws,
    async unmount() {
      ink.unmount();
      await exited;
    },
  };
}
