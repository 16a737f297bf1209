/**
 * The web server's notifications (docs/notifications.md): when a session needs the user or
 * finishes a turn (the rule: src/core/board/notify.ts), a Web Push to every subscribed device that
 * has not muted that session and is not in quiet mode, and a POST to the ntfy topic of
 * `--notify ntfy:<url>`, each saying what the terminal board says (src/core/board/notice-text.ts).
 */
import crypto from 'node:crypto';
import webpush from 'web-push';
import type { NoticeText } from '../../../core/board/notice-text.js';
import type { StateChange } from '../../../core/board/notify.js';
import type { Time } from '../../../core/clock.js';
import { DisposableStore, type Disposable } from '../../../core/lifetime.js';
import type { PushSubscriptionJson } from '../../../core/web/web-protocol.js';
import type { BoardFeed } from '../../../client/feed/board-api.js';
import { FeedNotices } from '../../../client/notify/feed-notices.js';
import { NoticeTexts } from '../../../client/notify/notice-texts.js';
import type { PushControl, WaitingQuestions } from '../web-types.js';
import { parseNtfyTarget, sendNtfy } from './ntfy.js';
import { PushStore } from './push-store.js';
import { loadVapidKeys, type VapidKeys } from './vapid.js';

/** How long a push service keeps a notice for a phone that is off: past an hour "needs you" is news nobody can act on. */
export const PUSH_TTL_SECONDS = 60 * 60;
/** The most one push request may take: a push service that hangs must not pile requests up. */
export const PUSH_TIMEOUT_MS = 10_000;
/**
 * A session's "is done" is pushed at most once in this long: a shell that prints every few
 * seconds goes busy and idle each time, and a phone must not buzz for each. (The terminal board
 * rings once until the user looks at the row; a phone has no row to look at.) A question is
 * always pushed: each one needs an answer.
 */
export const DONE_REPEAT_MS = 60_000;

/** web-push's sendNotification, or a test's (one that trusts its local push service). */
export type SendWebPush = (sub: PushSubscriptionJson, payload: string, options: webpush.RequestOptions) => Promise<unknown>;

export interface PushOptions {
  home: string;
  /** The sessions of every host. */
  feed: BoardFeed;
  /** What each waiting session asks, for the notice's body. */
  questions: WaitingQuestions;
  time: Time;
  /** `ntfy:<topic-url>` (--notify); a bad one throws. */
  ntfy?: string;
  /** The VAPID subject (a mailto: or https: URI that reaches the user); default DEFAULT_VAPID_SUBJECT. */
  vapidSubject?: string;
  /** The server's own URL, for ntfy's Click (a tap opens the session's page). */
  pageUrl?: string;
  /** One line for the server log. */
  log(line: string): void;
  sendWebPush?: SendWebPush;
  doneRepeatMs?: number;
}

/** What a service worker gets (src/web/page/sw.ts shows it; a tap opens `url`). */
export interface PushPayload extends NoticeText {
  id: string;
  url: string;
}

export const sessionUrl = (id: string) => `/#s=${encodeURIComponent(id)}`;

export class Push implements PushControl, Disposable {
  readonly publicKey: string;
  private readonly vapid: VapidKeys;
  private readonly store: PushStore;
  private readonly ntfyUrl: string | null;
  private readonly feedNotices: FeedNotices;
  private readonly texts: NoticeTexts;
  private readonly disposables = new DisposableStore();
  /** The rows NoticeWatch keeps marked, and since when: a "done" is marked for DONE_REPEAT_MS. */
  private readonly marked = new Map<string, { state: string; at: number }>();
  /** Endpoints whose failure is in the log already (said again only after a success). */
  private readonly failing = new Set<string>();
  private ntfyFailing = false;
  private disposed = false;

  constructor(private readonly o: PushOptions) {
    const target = o.ntfy === undefined ? null : parseNtfyTarget(o.ntfy);
    if (target && !target.ok) throw new Error(target.message);
    this.ntfyUrl = target?.url ?? null;
    this.vapid = loadVapidKeys(o.home, o.vapidSubject);
    this.publicKey = this.vapid.publicKey;
    this.store = new PushStore(o.home);
    this.texts = this.disposables.add(new NoticeTexts({ feed: o.feed, questions: o.questions, time: o.time }));
    this.feedNotices = this.disposables.add(new FeedNotices(o.feed, (changes) => this.rang(changes)));
  }

  subscribe(deviceId: string, sub: PushSubscriptionJson): void {
    this.write(() => this.store.subscribe(deviceId, sub));
  }

  mute(deviceId: string, sessionId: string, muted: boolean): void {
    this.write(() => this.store.mute(deviceId, sessionId, muted));
  }

  quiet(deviceId: string, quiet: boolean): void {
    this.write(() => this.store.quiet(deviceId, quiet));
  }

  isMuted(deviceId: string, sessionId: string): boolean {
    return this.store.isMuted(deviceId, sessionId);
  }

  isQuiet(deviceId: string): boolean {
    return this.store.isQuiet(deviceId);
  }

  /** A revoked device: its subscriptions, mutes and quiet mode go. */
  forgetDevice(deviceId: string): void {
    this.write(() => this.store.forget(deviceId));
  }

  dispose(): void {
    this.disposed = true;
    this.disposables.dispose();
  }

  private rang(changes: StateChange[]): void {
    this.keepMarks(changes);
    if (changes.length > 0) this.texts.compose(changes, (texts) => changes.forEach((c, i) => this.send(c, texts[i]!)));
  }

  /** Marks as NoticeWatch reads them: a question's goes at once (the next one pushes), a "done" stays DONE_REPEAT_MS. */
  private keepMarks(changes: readonly StateChange[]): void {
    const now = this.o.time.clock.now();
    for (const c of changes) this.marked.set(c.id, { state: c.to, at: now });
    for (const [id, m] of [...this.marked]) {
      if (m.state === 'waiting' || now - m.at >= (this.o.doneRepeatMs ?? DONE_REPEAT_MS)) this.marked.delete(id);
    }
    this.feedNotices.watch.setUnseen([...this.marked.keys()]);
  }

  private send(c: StateChange, text: NoticeText): void {
    if (this.disposed) return;
    const waiting = c.to === 'waiting';
    const payload: PushPayload = { ...text, id: c.id, url: sessionUrl(c.id) };
    const json = JSON.stringify(payload);
    for (const [device, sub] of this.store.subscriptions()) {
      if (this.store.isQuiet(device) || this.store.isMuted(device, c.id)) continue;
      this.webPush(sub, json, waiting, c.id);
    }
    if (this.ntfyUrl) {
      const click = this.o.pageUrl ? new URL(payload.url, this.o.pageUrl).href : undefined;
      sendNtfy(this.ntfyUrl, { ...text, waiting, click }).then(
        () => (this.ntfyFailing = false),
        (err: unknown) => {
          if (this.ntfyFailing || this.disposed) return;
          this.ntfyFailing = true; // once until it works again: a topic server that is down would fill the log
          this.o.log(`ntfy: ${describe(err)} (not said again until a notice gets through)`);
        },
      );
    }
  }

  private webPush(sub: PushSubscriptionJson, payload: string, waiting: boolean, id: string): void {
    const options: webpush.RequestOptions = {
      vapidDetails: this.vapid,
      TTL: PUSH_TTL_SECONDS,
      urgency: waiting ? 'high' : 'normal',
      timeout: PUSH_TIMEOUT_MS,
      topic: pushTopic(id),
    };
    const send = this.o.sendWebPush ?? ((s, p, opts) => webpush.sendNotification(s, p, opts));
    // Async: what web-push throws before it returns a promise (a bad argument) is a rejection too.
    const sent = (async () => send(sub, payload, options))();
    sent.then(
      () => this.failing.delete(sub.endpoint),
      (err: unknown) => this.failed(sub, err),
    );
  }

  private failed(sub: PushSubscriptionJson, err: unknown): void {
    if (this.disposed) return;
    const status = (err as { statusCode?: unknown }).statusCode;
    const where = originOf(sub.endpoint);
    if (status === 404 || status === 410) {
      // The browser unsubscribed, or the push service dropped it: it will never work again.
      this.failing.delete(sub.endpoint);
      this.write(() => {
        if (this.store.remove(sub.endpoint)) this.o.log(`push: ${where} says a subscription is gone (${status}): removed`);
      });
      return;
    }
    if (this.failing.has(sub.endpoint)) return;
    this.failing.add(sub.endpoint);
    this.o.log(`push: sending to ${where} failed: ${describe(err)} (not said again for it until one gets through)`);
  }

  /** push.json written: a disk that refuses it is logged, the server goes on with what it holds. */
  private write(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.o.log(`push: could not write push.json: ${describe(err)}`);
    }
  }
}

/** The push side: keys made or read, subscriptions read, and the feed followed until disposed. */
export function createPush(o: PushOptions): Push {
  return new Push(o);
}

/**
 * The push `Topic` of a session's notices: a phone that was off gets the session's latest notice,
 * not each one it missed (the push service replaces one not yet delivered). At most 32 base64url
 * characters (RFC 8030), and not the id itself: a topic is seen by the push service.
 */
export function pushTopic(id: string): string {
  return crypto.createHash('sha256').update(id).digest('base64url').slice(0, 32);
}

/** An endpoint's origin only: its path is a capability (whoever has it can push to that browser). */
function originOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return 'a push service';
  }
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const status = (err as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? `${status} ${err.message}` : err.message;
}
