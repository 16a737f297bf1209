/**
 * The board's chat over several machines: this machine's LiveChatFeed, and the room of a
 * remote row (`host/room`, src/client/remote/host-rows.ts) read over ssh while the pane shows it:
 * `agent-board chat read --room R --since ID --json` there every REMOTE_CHAT_POLL_MS (short
 * commands, so nothing is left running there when the board goes, and an older agent-board
 * answers them too). Posting is remoteChatPost: `chat post` there, the text on its stdin. Which
 * remote rooms are paused comes with each machine's session list (src/cli/commands/feed.ts).
 */
import type { Scheduler } from '../../core/clock.js';
import { DisposableStore, Emitter, MutableDisposable, type Event } from '../../core/lifetime.js';
import { asChatRecord, loopGuard, type ChatRecord } from '../../core/chat/chat.js';
import { EXIT, UserError } from '../../state/errors.js';
import type { ChatFeed, ChatPosted, RoomChat } from '../feed/board-api.js';
import { backoffMs, remoteRoom } from './host-rows.js';
import { runRemote } from './remote.js';

/** While a remote room is open, how often it is read again (one short ssh each time). */
export const REMOTE_CHAT_POLL_MS = 2000;

/** What the board's feed knows of remote rooms (src/client/remote/remote-feed.ts: the far sides' `pausedRooms`). */
export interface RemoteRooms {
  /** Remote rooms (`host/room`) whose loop guard is paused there. */
  readonly pausedRooms: readonly string[];
  /** Whether `host` says which rooms are paused (an older agent-board there does not). */
  knowsPaused(host: string): boolean;
  /** The remote rooms' pauses (or anything else of the feed) may have changed. */
  readonly onChange: Event<void>;
}

/** One remote command: `agent-board args...` on `host` (tests pass a fake). */
export type RemoteRun = (host: string, args: string[], scheduler: Scheduler, input?: string) => Promise<string>;

export class HostsChatFeed implements ChatFeed {
  private readonly changes = new Emitter<void>();
  private readonly store = new DisposableStore();
  private readonly poll = new MutableDisposable();
  private open: { room: string; host: string; name: string; records: ChatRecord[]; view: RoomChat; failures: number } | null = null;
  private epoch = 0;
  private watchedRemote = new Set<string>();
  private paused: readonly string[] = [];

  constructor(
    private readonly local: ChatFeed,
    private readonly scheduler: Scheduler,
    private readonly remote: RemoteRooms | null = null,
    private readonly run: RemoteRun = runRemote,
  ) {
    this.store.add(this.changes);
    this.store.add(this.poll);
    this.store.add(local.onChange(() => this.update(true)));
    if (remote) this.store.add(remote.onChange(() => this.update(false)));
  }

  /** This machine's paused rooms, then those of the remote rooms on the board paused there. */
  get pausedRooms(): readonly string[] {
    return this.paused;
  }

  get chat(): RoomChat | null {
    return this.open ? this.open.view : this.local.chat;
  }

  /** This machine's rooms are followed here; a remote room's pause comes from its machine's feed. */
  watchRooms(rooms: readonly string[]): void {
    this.local.watchRooms(rooms.filter((r) => remoteRoom(r) === null));
    this.watchedRemote = new Set(rooms.filter((r) => remoteRoom(r) !== null));
    this.update(false);
  }

  openRoom(room: string | null): void {
    const far = room === null ? null : remoteRoom(room);
    if (this.open?.room === room) return;
    this.epoch++;
    this.poll.clear();
    this.open = null;
    if (!far || room === null) {
      this.local.openRoom(room);
      return;
    }
    this.local.openRoom(null);
    this.open = { room, host: far.host, name: far.room, records: [], view: { room, records: [], paused: false }, failures: 0 };
    this.changes.fire();
    this.read();
  }

  /** The paused rooms or the open room's messages changed. */
  readonly onChange: Event<void> = (fn) => this.changes.event(fn);

  dispose(): void {
    this.epoch++;
    this.store.dispose();
    this.local.dispose();
  }

  /** Reads what is new in the open remote room, then again after the poll (or the backoff, when it failed). */
  private read(): void {
    const o = this.open;
    if (!o) return;
    const epoch = this.epoch;
    const since = o.records.at(-1)?.id ?? 0;
    this.run(o.host, ['chat', 'read', '--room', o.name, '--since', String(since), '--json'], this.scheduler).then(
      (out) => {
        if (epoch !== this.epoch) return;
        o.failures = 0;
        const fresh = out.split('\n').flatMap((l) => (l.startsWith('{') ? (asRecord(l) ?? []) : [])).filter((r) => r.id > since);
        if (fresh.length > 0 || o.view.records.length === 0) {
          o.records = o.records.concat(fresh);
          o.view = { room: o.room, records: o.records, paused: this.pausedThere(o.host, o.room, o.records) };
          this.changes.fire();
        }
        this.again(epoch, REMOTE_CHAT_POLL_MS);
      },
      () => {
        // The pane keeps what it showed; the link is tried again, more slowly (the footer's post error says why).
        if (epoch === this.epoch) this.again(epoch, backoffMs(++o.failures));
      },
    );
  }

  /** The paused rooms again, and the open remote room's pause; onChange fires when either changed (or `always`). */
  private update(always: boolean): void {
    const remote = (this.remote?.pausedRooms ?? []).filter((r) => this.watchedRemote.has(r));
    const next = [...this.local.pausedRooms, ...remote];
    let changed = always;
    if (next.join('\n') !== this.paused.join('\n')) {
      this.paused = next;
      changed = true;
    }
    const o = this.open;
    if (o && o.view.paused !== this.pausedThere(o.host, o.room, o.records)) {
      o.view = { ...o.view, paused: !o.view.paused };
      changed = true;
    }
    if (changed) this.changes.fire();
  }

  /** A remote room's pause: as its machine says, else worked out from its records with the default limit. */
  private pausedThere(host: string, room: string, records: readonly ChatRecord[]): boolean {
    if (this.remote?.knowsPaused(host)) return this.remote.pausedRooms.includes(room);
    return loopGuard(records).paused;
  }

  private again(epoch: number, ms: number): void {
    this.poll.value = this.scheduler.setTimeout(() => {
      if (epoch === this.epoch) this.read();
    }, ms);
  }
}

function asRecord(line: string): ChatRecord | null {
  try {
    return asChatRecord(JSON.parse(line));
  } catch {
    return null; // not a record (a banner): skipped
  }
}

/** Posts `text` to a remote room (`host/room`) as the human `from`, with `chat post` there. */
export async function remoteChatPost(room: string, from: string | null, text: string, scheduler: Scheduler, run: RemoteRun = runRemote): Promise<ChatPosted> {
  const far = remoteRoom(room);
  if (!far) throw new UserError(`${room} is not a remote room`, EXIT.failure);
  if (from === null) throw new UserError(`this board runs inside a session: it posts to rooms on ${far.host} as nobody`, EXIT.usage);
  const out = await run(far.host, ['chat', 'post', '--room', far.room, '--from', from, '-'], scheduler, text);
  const id = /#(\d+)/.exec(out);
  if (!id) throw new UserError(`${far.host}: chat post printed something else: ${out.trim().split('\n')[0] ?? ''}`, EXIT.failure);
  return { id: Number(id[1]), event: /resumed/.test(out) ? 'resume' : null, paused: /paused/.test(out) && !/resumed/.test(out) };
}
