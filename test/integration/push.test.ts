/**
 * The web server's pushes, end to end with real parts: a real runner runs
 * test/fixtures/programs/turns.mjs as the claude kind; a real LiveBoardFeed
 * and LiveWaitingQuestions follow it; createPush sends with web-push itself to
 * a local push service (test/helpers/push-service.ts), which decrypts each
 * payload with the subscription's own keys; ntfy goes to a local http server.
 */
import fs from 'node:fs';
import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LiveBoardFeed } from '../../src/client/feed/board-feed.js';
import { LiveWaitingQuestions } from '../../src/client/notify/waiting-questions.js';
import { sessionState } from '../../src/core/session-state.js';
import { Emitter } from '../../src/core/lifetime.js';
import type { SessionView } from '../../src/state/host-store.js';
import { createPush, pushTopic, type Push } from '../../src/web/server/push/push.js';
import { pushFile, vapidFile } from '../../src/web/server/push/push-files.js';
import { webDir } from '../../src/web/server/web-home.js';
import { destroyHome, makeHome, waitFor } from '../helpers/home.js';
import { PushService } from '../helpers/push-service.js';
import { RawClient } from '../helpers/raw-client.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { startTurns } from '../helpers/turns.js';

interface NtfyPost {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let home: string;
let service: PushService;
let ntfy: { server: http.Server; url: string; posts: NtfyPost[]; status: number };
const held: { dispose(): void }[] = [];
let logged: string[];

beforeEach(async () => {
  home = makeHome('ab-push-');
  logged = [];
  service = await PushService.start();
  const posts: NtfyPost[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      posts.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(ntfy.status).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ntfy = { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, posts, status: 200 };
});

afterEach(async () => {
  for (const d of held.splice(0).reverse()) d.dispose();
  await service.close();
  ntfy.server.closeAllConnections();
  await new Promise<void>((resolve) => ntfy.server.close(() => resolve()));
  destroyHome(home);
});

/** A session at its prompt, a feed that saw it there, and the push side following that feed. */
async function setUp(o: { ntfy?: boolean } = {}): Promise<{ id: string; control: string; push: Push; feed: LiveBoardFeed; state: () => string | undefined }> {
  const { id, control } = startTurns(home, 'asker');
  const feed = new LiveBoardFeed(home, { clock: REAL_TIME.clock, scheduler: REAL_TIME.scheduler });
  held.push(feed);
  const state = () => {
    const s = feed.sessions.find((x) => x.id === id);
    return s && sessionState(s);
  };
  await waitFor('asker at its prompt', () => state() === 'idle');
  const questions = new LiveWaitingQuestions({ home, feed, time: REAL_TIME });
  held.push(questions);
  const push = createPush({
    home,
    feed,
    questions,
    time: REAL_TIME,
    log: (line) => logged.push(line),
    sendWebPush: service.sendWebPush,
    ...(o.ntfy ? { ntfy: `ntfy:${ntfy.url}/agents`, pageUrl: 'https://board.example:8443/' } : {}),
  });
  held.push(push);
  return { id, control, push, feed, state };
}

async function answer(id: string): Promise<void> {
  const keys = await RawClient.hello(home, id);
  keys.send({ type: 'input', data: '1' });
  held.push({ dispose: () => keys.socket.destroy() });
}

const QUESTION = 'Do you want to proceed? 1. Yes 2. No';
const LAST_LINE = 'Wrote 3 files; all 12 tests pass.';

describe('push notifications', () => {
  it('a session that needs the user pushes its question, and one that finishes its turn its last line, to every device; ntfy gets the same', { timeout: 60_000 }, async () => {
    const { id, control, push, state } = await setUp({ ntfy: true });
    push.subscribe('phone', service.subscription('phone'));
    push.subscribe('laptop', service.subscription('laptop'));

    fs.appendFileSync(control, 'ask\n');
    const asked = await service.until('the question on both devices', (d) => d.length >= 2 && d);
    expect(asked.map((d) => d.name).sort()).toEqual(['laptop', 'phone']);
    for (const d of asked) {
      expect(d.payload).toEqual({ title: 'asker needs you', body: QUESTION, id, url: `/#s=${encodeURIComponent(id)}` });
      expect(d.urgency).toBe('high');
      expect(d.ttl).toBe('3600');
      expect(d.topic).toBe(pushTopic(id));
      expect(d.vapidKey).toBe(push.publicKey);
    }
    await waitFor('the ntfy post', () => ntfy.posts.length === 1);
    expect(ntfy.posts[0]).toMatchObject({
      path: '/agents',
      body: QUESTION,
      headers: { title: 'asker needs you', tags: 'warning', priority: 'high', click: `https://board.example:8443/#s=${encodeURIComponent(id)}` },
    });

    await answer(id);
    await waitFor('asker back at its prompt', () => state() === 'idle');
    fs.appendFileSync(control, 'done\n');
    const done = await service.until("the turn's end on both devices", (d) => d.length >= 4 && d.slice(2));
    for (const d of done) {
      expect(d.payload).toEqual({ title: 'asker is done', body: LAST_LINE, id, url: `/#s=${encodeURIComponent(id)}` });
      expect(d.urgency).toBe('normal');
    }
    await waitFor('the second ntfy post', () => ntfy.posts.length === 2);
    expect(ntfy.posts[1]).toMatchObject({ body: LAST_LINE, headers: { title: 'asker is done', priority: 'default' } });
    expect(service.delivered).toHaveLength(4); // answering it (waiting -> idle) pushed nothing
    expect(logged).toEqual([]);
  });

  it("a device that muted the session, and one in quiet mode, get nothing; the others do; unmuted, they do again", { timeout: 60_000 }, async () => {
    const { id, control, push, state } = await setUp();
    push.subscribe('muter', service.subscription('muter'));
    push.subscribe('quiet', service.subscription('quiet'));
    push.subscribe('plain', service.subscription('plain'));
    push.mute('muter', id, true);
    push.quiet('quiet', true);
    expect([push.isMuted('muter', id), push.isMuted('plain', id), push.isQuiet('quiet'), push.isQuiet('muter')]).toEqual([true, false, true, false]);

    fs.appendFileSync(control, 'ask\n');
    await service.until('the question on the plain device', (d) => d.some((x) => x.name === 'plain'));
    await answer(id);
    await waitFor('asker back at its prompt', () => state() === 'idle');
    // Everything that was sent for the question has arrived by now (it went out together).
    expect(service.requests.map(([name]) => name)).toEqual(['plain']);

    push.mute('muter', id, false);
    push.quiet('quiet', false);
    fs.appendFileSync(control, 'done\n');
    const done = await service.until("the turn's end on all three", (d) => d.length >= 4 && d.slice(1));
    expect(done.map((d) => d.name).sort()).toEqual(['muter', 'plain', 'quiet']);
  });

  it('a subscription the push service says is gone (410) is removed; another failure is logged once per endpoint', { timeout: 60_000 }, async () => {
    const { control, push, state, id } = await setUp();
    const gone = service.subscription('gone', 410);
    push.subscribe('old-phone', gone);
    push.subscribe('broken', service.subscription('broken', 500));
    push.subscribe('phone', service.subscription('phone'));

    fs.appendFileSync(control, 'ask\n');
    await service.until('the question on the phone', (d) => d.length === 1);
    await waitFor('the gone one removed', () => !fs.readFileSync(pushFile(home), 'utf8').includes(gone.endpoint));
    await waitFor('the failure logged', () => logged.some((l) => l.includes('failed')));
    await answer(id);
    await waitFor('asker back at its prompt', () => state() === 'idle');
    fs.appendFileSync(control, 'done\n');
    await service.until("the turn's end on the phone", (d) => d.length === 2);
    await waitFor('the broken one tried twice', () => service.requests.filter(([n]) => n === 'broken').length === 2);
    expect(service.requests.filter(([n]) => n === 'gone')).toEqual([['gone', 410]]); // never tried again
    const origin = new URL(service.url).origin;
    expect(logged.filter((l) => l.includes('gone'))).toEqual([`push: ${origin} says a subscription is gone (410): removed`]);
    expect(logged.filter((l) => l.includes('failed'))).toEqual([`push: sending to ${origin} failed: 500 Received unexpected response code (not said again for it until one gets through)`]);
    expect(JSON.parse(fs.readFileSync(pushFile(home), 'utf8'))).toMatchObject({ subs: { broken: [{}], phone: [{}] } });
    expect(JSON.parse(fs.readFileSync(pushFile(home), 'utf8')).subs['old-phone']).toBeUndefined();
  });
});

describe('ntfy', () => {
  it('a topic server that fails is logged once, until a notice gets through; every notice is still tried', { timeout: 20_000 }, async () => {
    const changes = new Emitter<void>();
    let sessions: SessionView[] = [];
    const set = (activity: 'busy' | 'idle') => {
      sessions = [{ id: 'abc', name: 'api', status: 'running', activity, activitySource: 'hook', previewLine: 'ok', runnerAlive: true } as SessionView];
      changes.fire();
    };
    const feed = { get sessions() { return sessions; }, preview: null, onChange: changes.event, onError: () => ({ dispose() {} }), setPreview() {}, dispose() {} };
    const questions = { dialog: () => null, onChange: () => ({ dispose() {} }) };
    set('idle');
    const push = createPush({ home, feed, questions, time: REAL_TIME, log: (l) => logged.push(l), ntfy: `ntfy:${ntfy.url}/agents`, doneRepeatMs: 0 });
    held.push(push);
    ntfy.status = 503;
    for (let i = 1; i <= 2; i++) {
      set('busy');
      set('idle');
      await waitFor(`post ${i}`, () => ntfy.posts.length === i);
    }
    await waitFor('the failure logged', () => logged.length === 1);
    expect(logged).toEqual(['ntfy: ntfy answered 503 Service Unavailable (not said again until a notice gets through)']);
    ntfy.status = 200;
    set('busy');
    set('idle');
    await waitFor('post 3', () => ntfy.posts.length === 3);
    ntfy.status = 500;
    set('busy');
    set('idle');
    await waitFor('said again after one got through', () => logged.length === 2);
    expect(ntfy.posts.map((p) => p.body)).toEqual(['ok', 'ok', 'ok', 'ok']);
  });
});

describe('the push files', () => {
  it('vapid.json is made once, 0600 in a 0700 folder, and kept across restarts; push.json (0600) keeps devices, mutes and quiet mode', () => {
    const feed = { sessions: [], preview: null, onChange: () => ({ dispose() {} }), onError: () => ({ dispose() {} }), setPreview() {}, dispose() {} };
    const questions = { dialog: () => null, onChange: () => ({ dispose() {} }) };
    const make = () => createPush({ home, feed, questions, time: REAL_TIME, log: (l) => logged.push(l) });
    const first = make();
    expect(first.publicKey).toMatch(/^[A-Za-z0-9_-]{80,}$/);
    expect(fs.statSync(webDir(home)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(vapidFile(home)).mode & 0o777).toBe(0o600);
    const kept = JSON.parse(fs.readFileSync(vapidFile(home), 'utf8')) as Record<string, string>;
    expect(kept).toEqual({ publicKey: first.publicKey, privateKey: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/), subject: 'https://www.npmjs.com/package/agent-board' }); // never @localhost: Apple refuses it
    first.subscribe('phone', service.subscription('phone'));
    first.mute('phone', 'abc123', true);
    first.quiet('laptop', true);
    expect(fs.statSync(pushFile(home)).mode & 0o777).toBe(0o600);
    first.dispose();

    const second = make();
    expect(second.publicKey).toBe(first.publicKey);
    expect(second.isMuted('phone', 'abc123')).toBe(true);
    expect(second.isQuiet('laptop')).toBe(true);
    second.dispose();
    // A subject the user gives replaces the kept one; the keys stay (every subscription still works).
    const third = createPush({ home, feed, questions, time: REAL_TIME, log: (l) => logged.push(l), vapidSubject: 'mailto:me@example.org' });
    expect(third.publicKey).toBe(first.publicKey);
    expect(JSON.parse(fs.readFileSync(vapidFile(home), 'utf8'))).toMatchObject({ publicKey: first.publicKey, privateKey: kept.privateKey, subject: 'mailto:me@example.org' });
    third.dispose();
    const fourth = make();
    expect((JSON.parse(fs.readFileSync(vapidFile(home), 'utf8')) as { subject: string }).subject).toBe('mailto:me@example.org'); // kept when none is given
    fourth.forgetDevice('phone');
    expect(fourth.isMuted('phone', 'abc123')).toBe(false);
    fourth.dispose();
    expect(logged).toEqual([]);
  });

  it('a bad --notify is refused before anything starts', () => {
    const feed = { sessions: [], preview: null, onChange: () => ({ dispose() {} }), onError: () => ({ dispose() {} }), setPreview() {}, dispose() {} };
    const questions = { dialog: () => null, onChange: () => ({ dispose() {} }) };
    expect(() => createPush({ home, feed, questions, time: REAL_TIME, log: () => undefined, ntfy: 'ntfy:ftp://x/t' })).toThrow('must be http or https');
    expect(fs.existsSync(vapidFile(home))).toBe(false);
  });
});
