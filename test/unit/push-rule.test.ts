/**
 * When the push side sends, with injected time and a feed the test moves
 * (the sending itself, with real runners and a real push service, is
 * test/integration/push.test.ts): every question pushes; a session's "is
 * done" at most once a minute; a waiting session's notice waits for its
 * question up to a second, then says the last line. Also ntfy's target and headers.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BoardFeed } from '../../src/client/feed/board-api.js';
import type { WaitingQuestions } from '../../src/client/notify/waiting-questions.js';
import type { DialogText } from '../../src/core/agents/dialog-text.js';
import type { Activity } from '../../src/core/agents/activity.js';
import { Emitter } from '../../src/core/lifetime.js';
import type { SessionView } from '../../src/state/host-store.js';
import { ntfyHeader, parseNtfyTarget } from '../../src/web/server/push/ntfy.js';
import { createPush, DONE_REPEAT_MS, pushTopic, type Push } from '../../src/web/server/push/push.js';
import { FakeTime } from '../helpers/fake-time.js';
import { makeHome } from '../helpers/home.js';

class Feed implements BoardFeed {
  sessions: readonly SessionView[] = [];
  preview = null;
  private readonly changes = new Emitter<void>();
  readonly onChange = this.changes.event;
  readonly onError = () => ({ dispose() {} });
  setPreview(): void {}
  dispose(): void {}
  set(activity: Activity, previewLine = ''): void {
    this.sessions = [{ id: 'abc', name: 'api', status: 'running', activity, activitySource: 'hook', previewLine, runnerAlive: true } as SessionView];
    this.changes.fire();
  }
}

class Questions implements WaitingQuestions {
  private d: DialogText | null = null;
  private readonly changes = new Emitter<void>();
  readonly onChange = this.changes.event;
  dialog(): DialogText | null {
    return this.d;
  }
  read(d: DialogText | null): void {
    this.d = d;
    this.changes.fire();
  }
}

let home: string;
let sent: { title: string; body: string }[];
let push: Push;
let time: FakeTime;
let feed: Feed;
let questions: Questions;

beforeEach(() => {
  home = makeHome('ab-push-rule-');
  sent = [];
  time = new FakeTime();
  feed = new Feed();
  questions = new Questions();
  feed.set('idle');
  push = createPush({
    home,
    feed,
    questions,
    time: { clock: time, scheduler: time },
    log: (l) => {
      throw new Error(`logged: ${l}`);
    },
    sendWebPush: (_sub, payload) => {
      const p = JSON.parse(payload) as { title: string; body: string };
      sent.push({ title: p.title, body: p.body });
      return Promise.resolve();
    },
  });
  push.subscribe('phone', { endpoint: 'https://push.example/x', keys: { p256dh: 'p', auth: 'a' } });
});

afterEach(() => {
  push.dispose();
  fs.rmSync(home, { recursive: true, force: true });
});

const PROCEED: DialogText = { question: 'Proceed?', options: [{ number: 1, label: 'Yes', selected: true }, { number: 2, label: 'No', selected: false }] };

describe('what the push side sends, and when', () => {
  it("every question pushes, as soon as it is read; a session's end of turn at most once a minute", () => {
    feed.set('busy');
    feed.set('waiting', 'Enter to confirm');
    expect(sent).toEqual([]); // its question is being read
    questions.read(PROCEED);
    expect(sent).toEqual([{ title: 'api needs you', body: 'Proceed? 1. Yes 2. No' }]);
    feed.set('busy');
    feed.set('waiting', 'Enter to confirm');
    expect(sent).toHaveLength(2); // read already (the same dialog): at once
    questions.read(null);

    feed.set('busy');
    feed.set('idle', 'done 1');
    expect(sent.at(-1)).toEqual({ title: 'api is done', body: 'done 1' });
    time.advance(DONE_REPEAT_MS - 1);
    feed.set('busy');
    feed.set('idle', 'done 2');
    expect(sent).toHaveLength(3); // a shell printing every few seconds buzzes once a minute at most
    time.advance(1);
    feed.set('busy');
    feed.set('idle', 'done 3');
    expect(sent.at(-1)).toEqual({ title: 'api is done', body: 'done 3' });
    expect(sent).toHaveLength(4);
  });

  it('a question not read within a second: the notice says the last line', () => {
    feed.set('busy');
    feed.set('waiting', 'Allow? (y/n)');
    time.advance(999);
    expect(sent).toEqual([]);
    time.advance(1);
    expect(sent).toEqual([{ title: 'api needs you', body: 'Allow? (y/n)' }]);
  });
});

describe('pushTopic', () => {
  it("is one per session, 32 base64url characters, and does not show the session's id", () => {
    expect(pushTopic('alpha/abc123')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(pushTopic('alpha/abc123')).toBe(pushTopic('alpha/abc123'));
    expect(pushTopic('alpha/abc123')).not.toBe(pushTopic('abc123'));
    expect(pushTopic('abc123')).not.toContain('abc123');
  });
});

describe('ntfy', () => {
  it('takes ntfy:<http(s) topic URL> and refuses anything else', () => {
    expect(parseNtfyTarget('ntfy:https://ntfy.sh/my-agents')).toEqual({ ok: true, url: 'https://ntfy.sh/my-agents' });
    expect(parseNtfyTarget('https://ntfy.sh/my-agents')).toMatchObject({ ok: false, message: expect.stringContaining('ntfy:<topic-url>') });
    expect(parseNtfyTarget('ntfy:not a url')).toMatchObject({ ok: false, message: expect.stringContaining('is not a URL') });
    expect(parseNtfyTarget('ntfy:https://ntfy.sh/')).toMatchObject({ ok: false, message: expect.stringContaining('names no topic') });
  });

  it('headers: ASCII as it is, anything else RFC 2047 encoded (ntfy decodes it)', () => {
    expect(ntfyHeader('api needs you')).toBe('api needs you');
    expect(ntfyHeader('café needs you')).toBe(`=?UTF-8?B?${Buffer.from('café needs you').toString('base64')}?=`);
    expect(ntfyHeader('a\r\nb')).toBe('a b');
  });
});
