/**
 * One remote machine's sessions for the board (src/client/remote/remote-feed.ts holds one per host):
 * a long-lived `ssh host agent-board feed --json` (src/cli/commands/feed.ts) whose lines are
 * the session list whenever it changes there (src/client/remote/host-link.ts). A RunnerLink
 * (src/client/link/runner-link.ts) keeps it up: a link that drops or never comes up is tried
 * again along HOST_RECONNECT, capped; meanwhile the rows it gave are kept and shown stale, and
 * the host has one line saying why. An agent-board there too old to know `feed` is asked
 * `ls --json` every POLL_MS instead. Nothing here blocks: every wait is a timer.
 */
import type { ChildProcess } from 'node:child_process';
import { startChild } from '../../state/process/start.js';
import type { Scheduler, Time } from '../../core/clock.js';
import { DisposableStore, Emitter, type Disposable, type Event } from '../../core/lifetime.js';
import type { SessionView } from '../../state/host-store.js';
import { messageOf, openFeed, openPoll, OlderFarSide, POLL_MS, type HostLine } from './host-link.js';
import { unreachableLine } from './host-rows.js';
import { HOST_RECONNECT } from '../link/retry-schedule.js';
import type { LinkFailure } from '../link/link-types.js';
import { RunnerLink } from '../link/runner-link.js';
import { listRemote, parseHost } from './remote.js';
import { sshArgv } from './ssh.js';

export type HostLinkState =
  | { kind: 'connecting'; failures: number; reason: string | null }
  | { kind: 'live'; mode: 'feed' | 'poll' }
  | { kind: 'down'; failures: number; reason: string; retryAt: number };

export interface HostFeedDeps {
  host: string;
  time: Time;
  /** Starts the far side's feed; tests pass a fake child. */
  open?: (host: string) => ChildProcess;
  /** One `ls --json` there, for an agent-board without `feed`. */
  poll?: (host: string, scheduler: Scheduler) => Promise<SessionView[]>;
}

const openSsh = (host: string): ChildProcess => startChild('ssh', sshArgv(parseHost(host).target, ['feed', '--json']));

export class HostFeed implements Disposable {
  /** The sessions as the host last reported them (their own ids). */
  sessions: readonly SessionView[] = [];
  /** Their rooms the loop guard paused there (their own names); null: the far side does not say (an older one, or polled). */
  pausedRooms: readonly string[] | null = null;
  private readonly changes = new Emitter<void>();
  private readonly problems = new Emitter<string>();
  /** The sessions or the link's state changed. */
  readonly onChange: Event<void> = this.changes.event;
  /** What only a developer needs (the board log). */
  readonly onProblem: Event<string> = this.problems.event;
  /** `feed` until the far side turns out not to know it. */
  private mode: 'feed' | 'poll' = 'feed';
  private readonly link: RunnerLink<HostLine>;
  private readonly store = new DisposableStore();
  /** When the next try is due (the clock's ms), while the link waits. */
  private retryAt = 0;

  constructor(private readonly d: HostFeedDeps) {
    this.link = new RunnerLink<HostLine>({ connect: (held) => this.connect(held), schedule: HOST_RECONNECT, scheduler: d.time.scheduler });
    this.store.add(
      this.link.onMessage((list) => {
        this.sessions = list.sessions;
        this.pausedRooms = list.pausedRooms;
        this.changes.fire();
      }),
    );
    this.store.add(
      this.link.onStateChange((s) => {
        if (s.kind === 'waiting') {
          this.retryAt = d.time.clock.now() + s.delayMs;
          this.problems.fire(`${d.host}: ${reasonOf(s.last)}; retrying in ${s.delayMs} ms`);
        }
        if (s.kind === 'waiting' || s.kind === 'connecting') this.changes.fire(); // its rows turn stale, its line changes
      }),
    );
    for (const x of [this.link, this.changes, this.problems]) this.store.add(x);
    this.link.start();
  }

  get host(): string {
    return this.d.host;
  }

  /** Where the link is: its first try or a retry, live, or down until `retryAt`. */
  get state(): HostLinkState {
    const s = this.link.state;
    switch (s.kind) {
      case 'open':
        return { kind: 'live', mode: this.mode };
      case 'waiting':
        return { kind: 'down', failures: s.last.failures, reason: reasonOf(s.last), retryAt: this.retryAt };
      case 'connecting':
        return { kind: 'connecting', failures: s.last?.failures ?? 0, reason: s.last ? reasonOf(s.last) : null };
      default:
        // HOST_RECONNECT never gives up: idle before the start, disposed after the end.
        return { kind: 'connecting', failures: 0, reason: null };
    }
  }

  /** Its rows are as last seen, not live. */
  get stale(): boolean {
    return this.state.kind !== 'live';
  }

  /** The host's one line while it cannot be reached (null: reached, or still on its first try). */
  line(nowMs: number): string | null {
    const s = this.state;
    if (s.kind === 'down') return unreachableLine(this.d.host, s.reason, s.retryAt - nowMs);
    if (s.kind === 'connecting' && s.reason !== null) return unreachableLine(this.d.host, s.reason, null);
    return null;
  }

  dispose(): void {
    this.store.dispose();
  }

  /** One try: the feed, or polling once the far side turned out to have no `feed`. */
  private async connect(held: DisposableStore): Promise<HostLine> {
    const { host, time } = this.d;
    const poll = this.d.poll ?? listRemote;
    if (this.mode === 'poll') return openPoll(host, time, poll, held);
    try {
      return await openFeed(host, time, this.d.open ?? openSsh, held);
    } catch (err) {
      if (!(err instanceof OlderFarSide) || held.isDisposed) throw err;
      this.problems.fire(`${host}: ${err.message}; asking ls --json every ${POLL_MS / 1000} s`);
      this.mode = 'poll';
      return openPoll(host, time, poll, held);
    }
  }
}

/** Why the link is down, in a few words. */
function reasonOf(f: LinkFailure): string {
  return f.error === null ? 'the link closed' : messageOf(f.error);
}
