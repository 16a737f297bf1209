/**
 * One remote machine's sessions for the board (src/client/remote-feed.ts holds one per host):
 * a long-lived `ssh host agent-board feed --json` (src/cli/commands/feed.ts) whose lines are
 * the session list whenever it changes there. A link that drops or never comes up is tried
 * again with a capped backoff (src/client/host-rows.ts); meanwhile the rows it gave are kept
 * and shown stale, and the host has one line saying why. An agent-board there too old to know
 * `feed` is asked `ls --json` every POLL_MS instead. Nothing here blocks: every wait is a timer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import type { Scheduler, Time } from '../core/clock.js';
import { DisposableStore, MutableDisposable, toDisposable, type Disposable } from '../core/lifetime.js';
import type { SessionView } from '../state/host-store.js';
import { parseFeedLine } from './host-lines.js';
import { backoffMs, unreachableLine } from './host-rows.js';
import { listRemote, parseHost } from './remote.js';
import { childEnd, sshArgv, stderrTail, type ChildEnd } from './ssh.js';

/** The far side's first list must come within this (a TCP and ssh handshake, a node start there). */
export const HOST_HELLO_MS = 20_000;
/** A link with no line for this long is taken for dead (the far side says `alive` every 10 s). */
export const HOST_SILENCE_MS = 35_000;
/** An older agent-board there (no `feed`): how often its `ls --json` is asked. */
export const POLL_MS = 5000;

export type HostLinkState =
  | { kind: 'connecting'; failures: number; reason: string | null }
  | { kind: 'live'; mode: 'feed' | 'poll' }
  | { kind: 'down'; failures: number; reason: string; retryAt: number };

export interface HostFeedDeps {
  host: string;
  time: Time;
  /** The sessions or the link's state changed. */
  changed(): void;
  /** What only a developer needs (the board log). */
  problem(detail: string): void;
  /** Starts the far side's feed; tests pass a fake child. */
  open?: (host: string) => ChildProcess;
  /** One `ls --json` there, for an agent-board without `feed`. */
  poll?: (host: string, scheduler: Scheduler) => Promise<SessionView[]>;
}

const openFeed = (host: string): ChildProcess =>
  spawn('ssh', sshArgv(parseHost(host).target, ['feed', '--json']), { stdio: ['pipe', 'pipe', 'pipe'] });

export class HostFeed implements Disposable {
  /** The sessions as the host last reported them (their own ids). */
  sessions: readonly SessionView[] = [];
  /** Their rooms the loop guard paused there (their own names); null: the far side does not say (an older one, or polled). */
  pausedRooms: readonly string[] | null = null;
  state: HostLinkState = { kind: 'connecting', failures: 0, reason: null };
  private mode: 'feed' | 'poll' = 'feed';
  private readonly store = new DisposableStore();
  /** The current link (the child and its listeners) or poll. */
  private readonly link = new MutableDisposable<DisposableStore>();
  private readonly retry = new MutableDisposable();
  private disposed = false;

  constructor(private readonly d: HostFeedDeps) {
    this.store.add(this.link);
    this.store.add(this.retry);
    this.connect();
  }

  get host(): string {
    return this.d.host;
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
    this.disposed = true;
    this.store.dispose();
  }

  private connect(): void {
    if (this.disposed) return;
    if (this.mode === 'poll') this.pollOnce();
    else this.openLink();
  }

  private openLink(): void {
    const { time } = this.d;
    const held = (this.link.value = new DisposableStore());
    let child: ChildProcess;
    try {
      child = (this.d.open ?? openFeed)(this.d.host);
    } catch (err) {
      this.fail(`cannot run ssh: ${messageOf(err)}`);
      return;
    }
    held.add(toDisposable(() => child.kill()));
    const lastLine = stderrTail(child);
    let why: string | null = null;
    const silence = held.add(new MutableDisposable());
    const watch = (ms: number, what: string) => {
      silence.value = time.scheduler.setTimeout(() => {
        why = what;
        child.kill();
      }, ms);
    };
    watch(HOST_HELLO_MS, `no answer within ${HOST_HELLO_MS / 1000} s`);
    const lines = readline.createInterface({ input: child.stdout!, crlfDelay: Infinity });
    held.add(toDisposable(() => lines.close()));
    lines.on('line', (text) => {
      if (this.link.value !== held) return;
      const l = parseFeedLine(text);
      if (!l) return;
      watch(HOST_SILENCE_MS, `silent for ${HOST_SILENCE_MS / 1000} s`);
      if (l.type === 'sessions') this.got(l.sessions, 'feed', l.pausedRooms ?? null);
    });
    void childEnd(child).then((end) => {
      if (this.disposed || this.link.value !== held) return;
      this.link.clear();
      const tail = lastLine();
      if (olderFarSide(end, tail)) {
        this.d.problem(`${this.d.host}: agent-board there has no feed command (${tail}); asking ls --json every ${POLL_MS / 1000} s`);
        this.mode = 'poll';
        this.connect();
        return;
      }
      this.fail(why ?? endReason(end, tail));
    });
  }

  private pollOnce(): void {
    const held = (this.link.value = new DisposableStore());
    (this.d.poll ?? listRemote)(this.d.host, this.d.time.scheduler).then(
      (list) => {
        if (this.disposed || this.link.value !== held) return;
        this.got(list, 'poll', null);
        held.add(this.d.time.scheduler.setTimeout(() => this.connect(), POLL_MS));
      },
      (err: unknown) => {
        if (this.disposed || this.link.value !== held) return;
        this.link.clear();
        this.fail(messageOf(err));
      },
    );
  }

  private got(sessions: readonly SessionView[], mode: 'feed' | 'poll', pausedRooms: readonly string[] | null): void {
    this.sessions = sessions;
    this.pausedRooms = pausedRooms;
    this.state = { kind: 'live', mode };
    this.d.changed();
  }

  /** The link failed: its rows go stale, and it is tried again after the backoff. */
  private fail(reason: string): void {
    const failures = this.state.kind === 'live' ? 1 : this.state.failures + 1;
    const wait = backoffMs(failures);
    this.state = { kind: 'down', failures, reason, retryAt: this.d.time.clock.now() + wait };
    this.d.problem(`${this.d.host}: ${reason}; retrying in ${wait} ms`);
    this.d.changed();
    this.retry.value = this.d.time.scheduler.setTimeout(() => {
      this.retry.clear();
      if (this.disposed) return;
      this.state = { kind: 'connecting', failures, reason };
      this.d.changed();
      this.connect();
    }, wait);
  }
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

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0] || 'failed';
