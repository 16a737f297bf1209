/**
 * The board's start (its composition root): parses the detach key, makes the real clock and
 * timers, the feeds and the actions, and runs the board until the user quits. Used by the bare
 * command, `board` and `demo`.
 */
import { toDisposable, type Disposable } from '../core/lifetime.js';
import { DEFAULT_DETACH_KEY, parseDetachKey } from '../core/terminal/detach-key.js';
import { terminalRestoreSequence } from '../core/terminal/terminal-restore.js';
import { readUserConfig } from '../state/config.js';
import { EXIT, UserError } from '../state/errors.js';
import { realClock, realScheduler } from '../state/real-time.js';
import { getHome } from './context.js';
import { boardHosts } from '../client/remote/host-rows.js';
import { parseHost } from '../client/remote/remote.js';

export interface BoardCliOptions {
  detachKey?: string;
  /** Run through the shell when a session needs the user (waiting) or finishes a turn (busy to idle). */
  notifyCmd?: string;
  /** `--host`, repeatable: machines whose sessions the board lists too (besides config.json `hosts`). */
  host?: string[];
}

export async function openBoard(o: BoardCliOptions): Promise<void> {
  const parsed = parseDetachKey(o.detachKey ?? process.env.AGENT_BOARD_DETACH_KEY ?? DEFAULT_DETACH_KEY);
  if (!parsed.ok) throw new UserError(parsed.message, EXIT.usage);
  for (const h of o.host ?? []) parseHost(h); // a bad --host is a usage error, said before anything else
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UserError('the board needs a terminal; from a script use: agent-board ls', EXIT.usage);
  }
  const home = getHome();
  const settings = readUserConfig();
  const hosts = boardHosts(o.host ?? [], settings.config.hosts);
  // The board's modules (Ink, React) load only when it opens: other commands start fast.
  const [{ runBoard }, { makeBoardParts }, { FileBoardLog }, { backgroundHelperThreadsSoon }, { LiveWaitingQuestions }] = await withoutCi(() =>
    Promise.all([
      import('../ui/run-board.js'),
      import('../client/board-actions/board-parts.js'),
      import('../client/feed/board-log.js'),
      import('../ui/helper-threads.js'),
      import('../client/notify/waiting-questions.js'),
    ]),
  );
  // The board's terminal size goes to every runner it watches: after an attach from a smaller
  // terminal, a session fills the board again (src/runner/clients/size-policy.ts).
  const viewSize = () => ({ cols: process.stdout.columns || 80, rows: process.stdout.rows || 24 });
  const time = { clock: realClock, scheduler: realScheduler() };
  // The feeds' timers never hold the process: their sockets and watches, and Ink's stdin, do.
  const feedScheduler = realScheduler({ unref: true });
  const parts = makeBoardParts({ home, hosts, time, feedScheduler, viewSize });
  const { feed, chat } = parts;
  const onResize = () => parts.localFeed.setViewSize(viewSize());
  process.stdout.on('resize', onResize);
  const log = new FileBoardLog(home, realClock);
  for (const e of settings.errors) log.write(e); // a bad setting is its default; the log says which
  // What a waiting session asks, read off its screen, for its notification (src/client/notify/).
  const questions = new LiveWaitingQuestions({ home, feed, time: { clock: realClock, scheduler: feedScheduler } });
  questions.onError((detail) => log.write(detail));
  const feeds = {
    dispose() {
      process.stdout.off('resize', onResize);
      questions.dispose();
      parts.dispose();
    },
  };
  const signalHandlers = restoreTerminalOnSignals(feeds);
  // The thread that draws keeps its CPU: V8's and libuv's helper threads yield to it.
  const helpers = backgroundHelperThreadsSoon(time.scheduler, (line) => log.write(line));
  try {
    await runBoard({
      home,
      feed,
      chat,
      actions: parts.actions,
      time,
      log,
      stdin: process.stdin,
      stdout: process.stdout,
      detachKey: parsed.key,
      newDefaults: { kind: 'shell', name: '', command: process.env.SHELL || '/bin/sh', cwd: process.cwd(), room: 'default', worktree: false, branch: '' },
      notifyCmd: o.notifyCmd || undefined,
      questions,
      autoRevive: settings.config.autoRevive,
      connect: (s) => parts.connect(s),
    });
  } finally {
    helpers.dispose();
    signalHandlers.dispose();
    feeds.dispose();
    log.dispose();
  }
}

/**
 * Ink decides when it loads whether it runs under CI (a CI variable set, not
 * "0" or "false"), and then draws nothing until it exits. A user's terminal is
 * a terminal whatever CI says: load it with CI hidden, then put CI back for
 * the sessions the board starts.
 */
async function withoutCi<T>(load: () => Promise<T>): Promise<T> {
  // React picks its build when it loads: the development one costs about twice
  // the CPU per render (bench/board.mjs). Production, unless the user asked otherwise.
  const saved = { CI: process.env.CI, NODE_ENV: process.env.NODE_ENV };
  process.env.CI = 'false';
  process.env.NODE_ENV ??= 'production';
  try {
    return await load();
  } finally {
    // Put both back: the sessions the board starts inherit this environment.
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/**
 * Killed (SIGTERM, SIGINT, SIGHUP) while drawing or attached: give the
 * terminal back (alternate screen off, every mode an attached program may
 * have turned on reset), then exit as the signal would have. Sessions run on.
 */
function restoreTerminalOnSignals(feed: Disposable): Disposable {
  const signals = { SIGTERM: 15, SIGINT: 2, SIGHUP: 1 } as const;
  const handlers = Object.entries(signals).map(([sig, n]) => {
    const handler = () => {
      try {
        process.stdout.write(terminalRestoreSequence(true));
        if (process.stdin.isTTY) process.stdin.setRawMode(false);
      } catch {
        // the terminal may be gone (SIGHUP): nobody to give it back to
      }
      feed.dispose();
      process.exit(128 + n);
    };
    process.on(sig, handler);
    return [sig, handler] as const;
  });
  return toDisposable(() => {
    for (const [sig, handler] of handlers) process.off(sig, handler);
  });
}
