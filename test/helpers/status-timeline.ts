/**
 * A session's status as a timeline: one `subscribe_status` connection that
 * keeps every change of the runner's layered activity (with the runner's own
 * `activitySince` as its time, so the push's throttle and the socket add
 * nothing), and of the kind the session says runs in it. The same connection
 * types and resizes, as an operator's client would.
 */
import type { Activity, ActivitySource } from '../../src/core/agents/activity.js';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import type { StatusMsg } from '../../src/core/protocol/runner-messages.js';
import { RawClient } from './raw-client.js';

export interface StatusChange {
  /** Wall-clock ms of the change: the runner's activitySince. */
  at: number;
  activity: Activity;
  source: ActivitySource | null;
}

export interface KindChange {
  /** Wall-clock ms the push came. */
  at: number;
  /** The session's kind (`agent`), and the agent in its foreground if the runner names one. */
  agent: string;
  foregroundAgent: string | null;
}

export class StatusTimeline {
  readonly changes: StatusChange[] = [];
  readonly kinds: KindChange[] = [];
  private last: HostRecord | null = null;
  private seen = 0;

  private constructor(private readonly client: RawClient) {
    client.socket.on('data', () => this.take());
  }

  static async open(home: string, id: string): Promise<StatusTimeline> {
    const client = await RawClient.hello(home, id, { client: 'recordings-runner' });
    const t = new StatusTimeline(client);
    client.send({ type: 'subscribe_status' });
    await client.next((m) => m.type === 'status');
    t.take();
    return t;
  }

  private take(): void {
    const msgs = this.client.messages;
    for (; this.seen < msgs.length; this.seen++) {
      const m = msgs[this.seen]!;
      if (m.type !== 'status' && m.type !== 'hello') continue;
      const host = (m as StatusMsg).host;
      const prev = this.last;
      this.last = host;
      if (host.agent !== prev?.agent || host.foregroundAgent !== prev?.foregroundAgent) {
        this.kinds.push({ at: Date.now(), agent: host.agent, foregroundAgent: host.foregroundAgent ?? null });
      }
      const moved = host.activity !== prev?.activity || host.activitySource !== prev?.activitySource || host.activitySince !== prev?.activitySince;
      if (!moved || !host.activity) continue;
      const since = host.activitySince ? Date.parse(host.activitySince) : Date.now();
      this.changes.push({ at: since, activity: host.activity, source: host.activitySource ?? null });
      this.changes.sort((a, b) => a.at - b.at);
    }
  }

  get host(): HostRecord | null {
    return this.last;
  }

  /** The activity in effect at wall-clock `w`. */
  activityAt(w: number): Activity | null {
    return this.changeAt(w)?.activity ?? null;
  }

  changeAt(w: number): StatusChange | null {
    let found: StatusChange | null = null;
    for (const c of this.changes) if (c.at <= w) found = c;
    return found;
  }

  /** Does the activity equal `want` at some instant of [from, to]? */
  showsDuring(want: Activity, from: number, to: number): boolean {
    if (this.activityAt(from) === want) return true;
    return this.changes.some((c) => c.at > from && c.at <= to && c.activity === want);
  }

  input(data: string): void {
    this.client.send({ type: 'input', data });
  }

  resize(cols: number, rows: number): void {
    this.client.send({ type: 'resize', cols, rows });
  }

  close(): void {
    this.client.close();
  }
}
