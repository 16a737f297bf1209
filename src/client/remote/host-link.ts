/**
 * The line to another machine's sessions, as the board's RunnerLink holds it (src/client/remote/host-feed.ts
 * keeps it up): `ssh host agent-board feed --json` (src/cli/commands/feed.ts), open once its first
 * list came; or, for an agent-board there too old to know `feed`, its `ls --json` asked every
 * POLL_MS. Either is a LinkConnection whose messages are the host's lists and whose close says, in
 * a few words, why the line ended. Everything a try holds (the ssh child, its reader, its timers)
 * is in the link's store for it, so abandoning the try kills ssh at once.
 */
import type { ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import type { Scheduler, Time } from '../../core/clock.js';
import { BufferedEmitter, LatchedEmitter, MutableDisposable, toDisposable, type DisposableStore, type Event } from '../../core/lifetime.js';
import type { SessionView } from '../../state/host-store.js';
import { parseFeedLine } from './host-lines.js';
import type { LinkConnection } from '../link/link-types.js';
import { childEnd, stderrTail, type ChildEnd } from './ssh.js';
import { terminate } from '../../state/process/terminate.js';

/** The far side's first list must come within this (a TCP and ssh handshake, a node start there). */
export const HOST_HELLO_MS = 20_000;
/** A link with no line for this long is taken for dead (the far side says `alive` every 10 s). */
export const HOST_SILENCE_MS = 35_000;
/** An older agent-board there (no `feed`): how often its `ls --json` is asked. */
export const POLL_MS = 5000;

/** One list of the host's sessions, as its far side reported it. */
export interface HostList {
  sessions: readonly SessionView[];
  /** Their rooms the loop guard paused there (their own names); null: the far side does not say (an older one, or polled). */
  pausedRooms: readonly string[] | null;
}

/** The far side's agent-board has no `feed` (commander's usage error, `line`): ask `ls --json` there instead. */
export class OlderFarSide extends Error {
  constructor(readonly line: string) {
    super(`agent-board there has no feed command (${line})`);
  }
}

/** The host's lists until the line ends; the lists that came before anyone listened go to the first listener. */
export class HostLine implements LinkConnection<HostList, never> {
  private readonly lists = new BufferedEmitter<HostList>();
  private readonly closes = new LatchedEmitter<Error | null>();

  constructor(private readonly release: () => void) {}

  readonly onMessage: Event<HostList> = this.lists.event;

  /** Fires once, when the line ended (its error says why); at once for one that ended already. */
  readonly onClose: Event<Error | null> = this.closes.event;

  deliver(list: HostList): void {
    if (this.closes.fired) return;
    this.lists.fire(list);
  }

  end(err: Error | null): void {
    if (this.closes.fired) return;
    try {
      this.closes.fire(err);
    } finally {
      this.lists.dispose();
      this.closes.dispose();
    }
  }

  dispose(): void {
    this.release();
    this.end(null);
  }
}

/**
 * One try at `ssh host agent-board feed --json`: the line once the first list came; else why not
 * (ssh's failure, the far side's, no answer within HOST_HELLO_MS, or OlderFarSide).
 */
export function openFeed(host: string, time: Time, spawnFeed: (host: string) => ChildProcess, held: DisposableStore): Promise<HostLine> {
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawnFeed(host);
    } catch (err) {
      reject(new Error(`cannot run ssh: ${messageOf(err)}`));
      return;
    }
    // Ended as every process we start is: SIGTERM, then SIGKILL if ssh lingers (src/state/process/).
    const end = () => void terminate(child, { scheduler: time.scheduler });
    held.add(toDisposable(end));
    const lastLine = stderrTail(child);
    const line = new HostLine(end);
    let opened = false;
    let why: string | null = null;
    const silence = held.add(new MutableDisposable());
    const watch = (ms: number, what: string) => {
      silence.value = time.scheduler.setTimeout(() => {
        why = what;
        end();
      }, ms);
    };
    watch(HOST_HELLO_MS, `no answer within ${HOST_HELLO_MS / 1000} s`);
    const lines = readline.createInterface({ input: child.stdout!, crlfDelay: Infinity });
    held.add(toDisposable(() => lines.close()));
    lines.on('line', (text) => {
      const l = parseFeedLine(text);
      if (!l) return;
      watch(HOST_SILENCE_MS, `silent for ${HOST_SILENCE_MS / 1000} s`);
      if (l.type !== 'sessions') return;
      line.deliver({ sessions: l.sessions, pausedRooms: l.pausedRooms ?? null });
      if (!opened) {
        opened = true;
        resolve(line);
      }
    });
    void childEnd(child).then((end) => {
      const tail = lastLine();
      if (opened) line.end(new Error(why ?? endReason(end, tail)));
      else reject(olderFarSide(end, tail) ? new OlderFarSide(tail) : new Error(why ?? endReason(end, tail)));
    });
  });
}

/** One try at polling the host (`ls --json` there): the line once the first list came, asked again every POLL_MS until a poll fails. */
export async function openPoll(host: string, time: Time, poll: (host: string, scheduler: Scheduler) => Promise<SessionView[]>, held: DisposableStore): Promise<HostLine> {
  const first = await poll(host, time.scheduler);
  const next = held.add(new MutableDisposable());
  const line = new HostLine(() => next.clear());
  line.deliver({ sessions: first, pausedRooms: null });
  const again = () => {
    next.value = time.scheduler.setTimeout(() => {
      poll(host, time.scheduler).then(
        (list) => {
          if (held.isDisposed) return; // the line was let go while this poll ran
          line.deliver({ sessions: list, pausedRooms: null });
          again();
        },
        (err: unknown) => {
          if (!held.isDisposed) line.end(err instanceof Error ? err : new Error(String(err)));
        },
      );
    }, POLL_MS);
  };
  again();
  return line;
}

/** An agent-board there that does not know `feed` (or its --json): commander's usage error. */
export function olderFarSide(end: ChildEnd, line: string): boolean {
  return end.code === 2 && /unknown (command|option)/.test(line) && /feed|--json/.test(line);
}

/** Why a link ended, in a few words: ssh's own failure, or what agent-board there said. */
export function endReason(end: ChildEnd, line: string): string {
  if (end.error) return `cannot run ssh: ${end.error.message}`;
  if (end.code === 255) return line.startsWith('ssh:') ? line : `ssh: ${line || 'failed'}`;
  if (end.code === 0) return 'the link closed';
  if (end.code === null) return 'the link was cut';
  return `agent-board there: ${line.replace(/^agent-board: /, '') || `exit ${end.code}`}`;
}

/** An error in a few words: its first line. */
export const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0] || 'failed';
