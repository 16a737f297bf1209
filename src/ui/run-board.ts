/** The board's loop: Ink until the user quits or attaches, the attach, and the board again. */
import { render } from 'ink';
import { createElement } from 'react';
import { sessionConnector } from '../client/attach/attach-session.js';
import type { RunnerConnection } from '../client/link/connection.js';
import { terminalIdentity } from '../client/attach/tty-identity.js';
import { boardReducer, initialBoardState } from '../core/board/board-state.js';
import { readDemoMarks, writeDemoMarks } from '../state/demo-state.js';
import type { BoardView, NewFields } from '../core/board/board-types.js';
import type { DetachKey } from '../core/terminal/detach-key.js';
import type { SessionView } from '../state/host-store.js';
import { attachFromBoard } from '../client/board-actions/attach-from-board.js';
import { attachHintWanted } from '../client/attach/attach.js';
import { Board } from './Board.js';
import type { BoardActions, BoardFeed, ChatFeed } from '../client/feed/board-api.js';
import type { BoardLog } from '../client/feed/board-log.js';
import { DisposableStore } from '../core/lifetime.js';
import type { Time } from '../core/clock.js';
import { BoardNotifier } from './board-notifier.js';
import type { WaitingQuestions } from '../client/notify/waiting-questions.js';
import { BOARD_INK_OPTIONS } from './ink/options.js';
import type { LeaveRequest } from './contexts/ActionsContext.js';
import { RingGate } from './ring-gate.js';
import { ENTER_BOARD_SCREEN, LEAVE_BOARD_SCREEN, REENTER_BOARD_SCREEN } from './terminal-screen.js';

export interface RunBoardOptions {
  home: string;
  feed: BoardFeed;
  /** The rooms' chat, for the chat pane and the paused banner. */
  chat?: ChatFeed;
  actions: BoardActions;
  /** The board's clock and timers, made by its start. */
  time: Time;
  /** Where what only a developer needs goes: every feed error's detail (src/client/feed/board-log.ts). */
  log: BoardLog;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  detachKey: DetachKey;
  newDefaults: NewFields;
  /** How an attach reaches a session's runner; tests pass a fake one. */
  connect?: (s: SessionView) => () => Promise<RunnerConnection>;
  /** Reconnect waits for attaches; tests shorten them. */
  reconnectDelaysMs?: number[];
  /** `--notify-cmd`: run through the shell when a session rings (src/ui/board-notifier.ts). */
  notifyCmd?: string;
  /** config.json autoRevive: the board revives the sessions lost when it starts (src/ui/hooks/useAutoRevive.ts). */
  autoRevive?: boolean;
  /** The waiting sessions' questions, for what a notification says (src/client/notify/waiting-questions.ts). */
  questions?: WaitingQuestions;
  /** The board's environment: which terminal (for OSC notifications) and what the notify command inherits. Default process.env. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The board's loop: draw it with Ink until the user quits or attaches; for an
 * attach, take Ink down (it gives back raw mode and stdin), lend the terminal
 * to the attach client, then draw the board again where it was, with a line
 * that says how the attach ended. Sessions are never touched on the way out.
 */
export async function runBoard(o: RunBoardOptions): Promise<void> {
  const { stdin, stdout } = o;
  const connect = o.connect ?? ((s: SessionView) => sessionConnector(o.home, s, o.time));
  let view: BoardView<SessionView> | undefined;
  // The demo's walkthrough line, unless the home remembers it was hidden (src/state/demo-state.ts).
  const first = { sessions: [], state: initialBoardState({ walkthroughHidden: readDemoMarks(o.home).walkthroughDismissed === true }) };
  stdout.write(ENTER_BOARD_SCREEN);
  const gate = new RingGate(stdout);
  // Three reads of /proc: the same for every attach of this board run.
  const terminal = terminalIdentity(stdout);
  const notifier = new BoardNotifier({ feed: o.feed, ring: (seq) => gate.ring(seq), env: o.env ?? process.env, notifyCmd: o.notifyCmd, questions: o.questions, time: o.time });
  // For the whole run, attaches included: the feed goes on while the board is away.
  const logging = new DisposableStore();
  logging.add(o.feed.onError((e) => o.log.write(e.detail)));
  logging.add(o.log.onWriteError((why) => notifier.say(`the board log: ${why}`, true)));
  try {
    for (;;) {
      // An attach starts connecting when the board is asked to leave, while Ink takes itself down.
      let early: { id: string; conn: Promise<RunnerConnection> } | null = null;
      const left = await showBoard(o, first, notifier, view, (id) => {
        const s = o.feed.sessions.find((x) => x.id === id);
        if (!s) return;
        const conn = connect(s)();
        conn.catch(() => undefined); // the attach awaits it and reports its failure
        early = { id, conn };
      });
      if (!left || left.req.kind === 'quit') return;
      view = left.view;
      const id = left.req.id;
      const s = o.feed.sessions.find((x) => x.id === id);
      const started = early as { id: string; conn: Promise<RunnerConnection> } | null;
      // Gone between the key and now: the connection made for it is closed, not left open.
      if (started && !s) void started.conn.then((c) => c.close(), () => undefined);
      o.feed.setPreview(null); // nobody looks at it while attached
      notifier.attached(id);
      const msg = s
        ? await attachFromBoard(s, {
            connect: preconnected(started?.id === id ? started.conn : null, connect(s)),
            typeahead: left.typeahead,
            input: stdin,
            output: gate.output, // rings for other sessions go between the session's escape sequences
            // The runner may write to the board's terminal itself (direct output); rings wait meanwhile.
            terminal,
            onDirect: (on) => gate.hold(on),
            log: (line) => o.log.write(line),
            detachKey: o.detachKey,
            hint: attachHintWanted(o.env ?? process.env),
            reconnectDelaysMs: o.reconnectDelaysMs,
            scheduler: o.time.scheduler,
          })
        : { text: 'that session is gone', error: true };
      notifier.attached(null);
      gate.reset();
      view = { ...view, state: boardReducer(view.state, { type: 'message', ...msg }, view.sessions) };
      stdout.write(REENTER_BOARD_SCREEN);
    }
  } finally {
    logging.dispose();
    notifier.dispose();
    stdout.write(LEAVE_BOARD_SCREEN);
  }
}

interface Left {
  req: LeaveRequest;
  /** The board as it left: its state, and the feed's list it was over. */
  view: BoardView<SessionView>;
  typeahead: string;
}

/** One rendering of the board, until it leaves; resolves once Ink has let go of the terminal. */
/** The first call takes the connection already under way (if any); every later one (a reconnect) makes a new one. */
function preconnected(first: Promise<RunnerConnection> | null, connect: () => Promise<RunnerConnection>): () => Promise<RunnerConnection> {
  let pending = first;
  return () => {
    const c = pending ?? connect();
    pending = null;
    return c;
  };
}

async function showBoard(
  o: RunBoardOptions,
  first: BoardView<SessionView>,
  notices: BoardNotifier,
  initialView: BoardView<SessionView> | undefined,
  leavingToAttach: (id: string) => void,
): Promise<Left | null> {
  let left = null as Left | null;
  const ink = render(
    createElement(Board, {
      feed: o.feed,
      chat: o.chat,
      notices,
      actions: o.actions,
      time: o.time,
      newDefaults: o.newDefaults,
      detachLabel: o.detachKey.label,
      detachKey: o.detachKey,
      initialView: initialView ?? first,
      // Only as the board first starts: coming back from an attach, what is lost waits for R.
      autoRevive: o.autoRevive === true && initialView === undefined,
      rememberWalkthroughHidden: () => writeDemoMarks(o.home, { walkthroughDismissed: true }),
      onLeave: (req, view, typeahead) => {
        left = { req, view, typeahead };
      },
      // At the key: the hello's round trip overlaps the board's last render and Ink's exit.
      onLeaving: (req) => {
        if (req.kind === 'attach') leavingToAttach(req.id);
      },
    }),
    { stdin: o.stdin, stdout: o.stdout, exitOnCtrlC: false, patchConsole: false, ...BOARD_INK_OPTIONS },
  );
  // Ink exits through the board's leave (exitOnCtrlC is off), or with an error, which rejects.
  await ink.waitUntilExit();
  return left;
}
