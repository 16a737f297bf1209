/**
 * The page's logic that needs no browser (src/web/page): the reconnect's waits, the view in the
 * URL's hash, command ids the server takes, and a prompt kept until answered and sent again with
 * the same command id after a reconnect (so the runner's journal types it once).
 */
import { describe, expect, it } from 'vitest';
import { MAX_KEYS_CHARS, decodePageMessage, type PageMessage, type ServerMessage } from '../../src/core/web/web-protocol.js';
import { retryDelay } from '../../src/web/page/backoff.js';
import { CMD_ID_BYTES, cmdIdFrom } from '../../src/web/page/cmd-id.js';
import { parseHash, routeHash, type Route } from '../../src/web/page/hash-route.js';
import { PageModel, keyChunks, type TerminalEvent } from '../../src/web/page/page-model.js';
import { REVOKED_CLOSE_CODE, WebLink, type LinkState, type SocketLike } from '../../src/web/page/web-link.js';
import { FakeTime } from '../helpers/fake-time.js';

/** A socket the test opens, feeds and closes by hand; it records what the page sent. */
class FakeSocket implements SocketLike {
  sent: PageMessage[] = [];
  closed = false;
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: { code: number }) => void) | null = null;
  send(data: string): void {
    this.sent.push(JSON.parse(data) as PageMessage);
  }
  close(): void {
    this.closed = true;
  }
  open(): void {
    this.onopen?.();
  }
  receive(m: ServerMessage): void {
    this.onmessage?.({ data: JSON.stringify(m) });
  }
  drop(code = 1006): void {
    this.onclose?.({ code });
  }
}

function harness(opts: { unpaired?: boolean; route?: Route } = {}) {
  const time = new FakeTime();
  const sockets: FakeSocket[] = [];
  const connectedAt: number[] = [];
  let probes = 0;
  const link = new WebLink({
    connect: () => {
      const s = new FakeSocket();
      sockets.push(s);
      connectedAt.push(time.now());
      return s;
    },
    scheduler: time,
    probe: () => {
      probes++;
      return Promise.resolve(opts.unpaired ?? false);
    },
  });
  const states: LinkState[] = [];
  link.onState((s) => states.push(s));
  let n = 0;
  const model = new PageModel({ link, clock: time, scheduler: time, newCmdId: () => `cmd${String(++n).padStart(6, '0')}`, route: opts.route ?? { view: 'list' } });
  link.start();
  const last = () => sockets[sockets.length - 1]!;
  return { time, sockets, connectedAt, link, model, states, last, probes: () => probes };
}

/** Lets the probe's promise settle. */
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('reconnect', () => {
  it('waits 0.5 s, then doubles up to 10 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 40].map(retryDelay)).toEqual([500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
  });

  it('a lost connection is tried again with backoff, says reconnecting, and starts over from 0.5 s once back', async () => {
    const h = harness();
    h.last().open();
    h.last().drop();
    expect(h.link.state).toBe('reconnecting');
    // Each try refused before it opens (the server down): 0.5, 1, 2 s apart.
    for (const wait of [500, 1000, 2000]) {
      const count = h.sockets.length;
      h.time.advance(wait - 1);
      expect(h.sockets.length).toBe(count);
      h.time.advance(1);
      expect(h.sockets.length).toBe(count + 1);
      h.last().drop();
      await settle();
    }
    h.time.advance(4000);
    h.last().open();
    expect(h.link.state).toBe('open');
    h.last().drop();
    const count = h.sockets.length;
    h.time.advance(500);
    expect(h.sockets.length).toBe(count + 1);
    expect(h.states).toContain('reconnecting');
  });

  it('a refused first connection of an unpaired browser shows the pairing form and stops trying', async () => {
    const h = harness({ unpaired: true });
    h.last().drop();
    await settle();
    expect(h.probes()).toBe(1);
    expect(h.link.state).toBe('unpaired');
    expect(h.model.state.link).toBe('unpaired');
    h.time.advance(60_000);
    expect(h.sockets.length).toBe(1);
  });

  it('a revoked device (close 4401) shows the pairing form, without retrying', () => {
    const h = harness();
    h.last().open();
    h.last().drop(REVOKED_CLOSE_CODE);
    expect(h.link.state).toBe('unpaired');
    h.time.advance(60_000);
    expect(h.sockets.length).toBe(1);
  });
});

describe('the view in the hash', () => {
  it('reads and writes each view, a remote id with its slash included', () => {
    const routes: Route[] = [{ view: 'list' }, { view: 'session', id: 'gpu/a1b2' }, { view: 'diff', id: 'x y' }, { view: 'chat', room: 'default' }];
    for (const r of routes) expect(parseHash(routeHash(r)).route).toEqual(r);
    expect(parseHash('#s=abc')).toEqual({ route: { view: 'session', id: 'abc' }, pairCode: null });
    // What the push payload's url and the notification's tap carry.
    expect(parseHash(new URL('/#s=gpu%2Fa1', 'https://x').hash).route).toEqual({ view: 'session', id: 'gpu/a1' });
  });

  it('takes a pairing code from #pair=, and shows the list for anything it cannot read', () => {
    expect(parseHash('#pair=K7Q2MX')).toEqual({ route: { view: 'list' }, pairCode: 'K7Q2MX' });
    for (const h of ['', '#', '#s=', '#s=%E0%A4%A', '#zz=1', '#junk']) expect(parseHash(h)).toEqual({ route: { view: 'list' }, pairCode: null });
  });
});

describe('command ids', () => {
  it('are 32 hex digits the protocol takes, different each time', () => {
    const bytes = () => Uint8Array.from({ length: CMD_ID_BYTES }, () => Math.floor(Math.random() * 256));
    const a = cmdIdFrom(bytes());
    const b = cmdIdFrom(bytes());
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
    expect(decodePageMessage(JSON.stringify({ t: 'send', cmd: a, ids: ['s1'], text: 'hi' })).ok).toBe(true);
    expect(cmdIdFrom(new Uint8Array(16))).toBe('0'.repeat(32));
  });
});

describe('prompts sent exactly once', () => {
  const sends = (s: FakeSocket) => s.sent.filter((m) => m.t === 'send' || m.t === 'comment');

  it('a prompt not answered is sent again after a reconnect with the same cmd and targets; an answered one is not', async () => {
    const h = harness();
    h.last().open();
    h.model.toggleMark('b');
    h.model.toggleMark('a');
    const cmd = h.model.sendPrompt('run the tests')!;
    expect(sends(h.last())).toEqual([{ t: 'send', cmd, ids: ['b', 'a'], text: 'run the tests' }]);
    h.last().receive({ t: 'sent', cmd, id: 'b', status: 'applied', line: 'typed' });
    h.last().drop();
    await settle();
    h.time.advance(500);
    h.last().open();
    // Same cmd, same targets in the same order (the server may number targets by their place).
    expect(sends(h.last())).toEqual([{ t: 'send', cmd, ids: ['b', 'a'], text: 'run the tests' }]);
    h.last().receive({ t: 'sent', cmd, id: 'a', status: 'accepted', line: 'queued' });
    h.last().receive({ t: 'sent', cmd, id: 'b', status: 'applied', line: 'typed' });
    expect(h.model.state.sends[0]!.results).toEqual({ a: { status: 'accepted', line: 'queued' }, b: { status: 'applied', line: 'typed' } });
    h.last().drop();
    await settle();
    h.time.advance(500);
    h.last().open();
    expect(sends(h.last())).toEqual([]);
  });

  it('a prompt typed while disconnected goes out on the next connection; an unconfirmed one is asked again', async () => {
    const h = harness({ route: { view: 'session', id: 's1' } });
    h.last().open();
    h.last().drop();
    const cmd = h.model.sendPrompt('hello')!;
    expect(h.model.isPending(cmd)).toBe(true);
    await settle();
    h.time.advance(500);
    h.last().open();
    expect(sends(h.last())).toEqual([{ t: 'send', cmd, ids: ['s1'], text: 'hello' }]);
    h.last().receive({ t: 'sent', cmd, id: 's1', status: 'unconfirmed', line: 'the runner did not answer' });
    h.last().drop();
    await settle();
    h.time.advance(500);
    h.last().open();
    expect(sends(h.last()).map((m) => m.t === 'send' && m.cmd)).toEqual([cmd]);
  });

  it('review comments go as one comment and are settled by the ok naming their cmd', async () => {
    const h = harness({ route: { view: 'diff', id: 'w1' } });
    h.last().open();
    const cmd = h.model.sendComments('w1', [
      { file: 'a.ts', line: 3, text: 'rename this ' },
      { file: 'b.ts', line: 10, text: 'and test it' },
    ])!;
    expect(sends(h.last())).toEqual([{ t: 'comment', cmd, id: 'w1', text: 'a.ts:3: rename this\nb.ts:10: and test it' }]);
    h.last().receive({ t: 'ok', ref: cmd, line: 'comments sent' });
    expect(h.model.isPending(cmd)).toBe(false);
    h.last().drop();
    await settle();
    h.time.advance(500);
    h.last().open();
    expect(sends(h.last())).toEqual([]);
  });
});

describe('keys', () => {
  it('a paste longer than a frame takes goes in order, in frames the server accepts, no character cut in two', () => {
    const h = harness({ route: { view: 'session', id: 's1' } });
    h.last().open();
    const paste = 'a'.repeat(MAX_KEYS_CHARS - 1) + '😀' + 'b'.repeat(MAX_KEYS_CHARS + 5);
    h.model.keys('s1', paste);
    const keys = h.last().sent.filter((m) => m.t === 'keys');
    expect(keys.map((m) => m.t === 'keys' && m.data).join('')).toBe(paste);
    for (const m of keys) expect(decodePageMessage(JSON.stringify(m)).ok).toBe(true);
    expect(keyChunks('x😀y', 2)).toEqual(['x', '😀', 'y']);
  });
});

describe('the same view after a reconnect', () => {
  it('the open session is opened again (a fresh frame) and the room followed again', async () => {
    const h = harness({ route: { view: 'session', id: 's1' } });
    h.last().open();
    expect(h.last().sent).toEqual([{ t: 'open', id: 's1' }]);
    h.model.setRoute({ view: 'chat', room: 'default' });
    expect(h.last().sent.slice(1)).toEqual([{ t: 'close', id: 's1' }, { t: 'room', room: 'default' }]);
    h.last().drop();
    await settle();
    h.time.advance(500);
    h.last().open();
    expect(h.last().sent).toEqual([{ t: 'room', room: 'default' }]);
  });

  it("a frame that came before the terminal view was up is given to it first, then live output", () => {
    const h = harness({ route: { view: 'session', id: 's1' } });
    h.last().open();
    h.last().receive({ t: 'frame', id: 's1', cols: 80, rows: 24, data: 'screen' });
    h.last().receive({ t: 'out', id: 's1', data: 'a' });
    h.last().receive({ t: 'out', id: 'other', data: 'not ours' });
    const got: TerminalEvent[] = [];
    h.model.attachTerminal((m) => got.push(m));
    h.last().receive({ t: 'out', id: 's1', data: 'b' });
    expect(got.map((m) => (m.t === 'size' ? m.t : m.data))).toEqual(['screen', 'a', 'b']);
  });

  it("beside a session's terminal, the rest of the page re-renders for the server's news ten times a second at most", () => {
    const h = harness({ route: { view: 'session', id: 's1' } });
    h.last().open();
    let renders = 0;
    h.model.onChange(() => renders++);
    const row = (line: string) => ({ t: 'rows' as const, rows: [{ id: 's1', name: 'shell', kind: 'bash', state: 'busy' as const, stateText: 'busy', lastLine: line, lastOutputAt: null, worktree: null, room: 'default', dialog: null, muted: false }], hostLines: [], now: new Date(h.time.now()).toISOString() });
    // With no terminal on screen, the list re-renders as the news comes (its own update is what is timed).
    h.last().receive(row('PROMPT> '));
    expect(renders).toBe(1);
    const got: string[] = [];
    const view = h.model.attachTerminal((m) => got.push(m.t === 'size' ? m.t : m.data));
    // Each key's echo goes to the terminal at once; the row's news of it is in the state at once
    // (what the user does next reads it), and the page re-renders once for all of it.
    for (const key of 'abcd') {
      h.last().receive({ t: 'out', id: 's1', data: key });
      h.last().receive(row(`PROMPT> ${got.join('')}`));
      h.time.advance(20);
    }
    expect(got).toEqual(['a', 'b', 'c', 'd']);
    expect(h.model.state.rows[0]?.lastLine).toBe('PROMPT> abcd');
    expect(renders).toBe(1);
    h.time.advance(20);
    expect(renders).toBe(2);
    h.time.advance(500);
    expect(renders).toBe(2);
    // What the user does re-renders at once, a held re-render with it.
    h.last().receive(row('PROMPT> abcde'));
    h.model.toggleMark('s1');
    expect(renders).toBe(3);
    h.time.advance(500);
    expect(renders).toBe(3);
    view.dispose();
    h.last().receive(row('PROMPT> abcdef'));
    expect(renders).toBe(4);
  });

  it('time since output counts on the server clock, and rows gone are unmarked', () => {
    const h = harness();
    h.last().open();
    h.model.toggleMark('gone');
    const now = new Date(h.time.now() + 5000).toISOString();
    h.last().receive({ t: 'rows', rows: [], hostLines: ['gpu: unreachable'], now });
    expect(h.model.state.skewMs).toBe(5000);
    expect(h.model.state.marked).toEqual([]);
    expect(h.model.state.hostLines).toEqual(['gpu: unreachable']);
  });
});
