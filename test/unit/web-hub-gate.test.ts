/**
 * The hub's one gate for page messages (src/web/server/hub/page-messages.ts) and its flood bound
 * (bad-frames.ts) on an injected clock.
 */
import { describe, expect, it } from 'vitest';
import type { PageMessage } from '../../src/core/web/web-protocol.js';
import type { SessionView } from '../../src/state/host-store.js';
import { BAD_FRAME_WINDOW_MS, BadFrames, MAX_BAD_FRAMES } from '../../src/web/server/hub/bad-frames.js';
import { gatePageMessage, PAGE_MESSAGE_NEEDS } from '../../src/web/server/hub/page-messages.js';
import { FakeTime } from '../helpers/fake-time.js';

const running = { id: 'r1', name: 'live', status: 'running', activity: 'idle' } as SessionView;
const exited = { id: 'e1', name: 'done', status: 'exited', exitCode: 0 } as SessionView;
const find = (id: string) => [running, exited].find((s) => s.id === id);
const typist = { id: 'd1', name: 'laptop', readOnly: false };
const viewer = { id: 'd2', name: 'phone', readOnly: true };

describe('gatePageMessage', () => {
  it('a read-only device is refused everything that types, and nothing else', () => {
    const typing: PageMessage[] = [
      { t: 'keys', id: 'r1', data: 'x' },
      { t: 'resize', id: 'r1', cols: 80, rows: 24 },
      { t: 'send', cmd: 'cmd-00001', ids: ['r1'], text: 'hi' },
      { t: 'answer', id: 'r1', n: 1 },
      { t: 'comment', cmd: 'cmd-00002', id: 'r1', text: 'fix it' },
      { t: 'post', room: 'default', text: 'hello' },
    ];
    for (const m of typing) {
      expect(gatePageMessage(m, viewer, find)).toEqual({ ok: false, line: expect.stringMatching(new RegExp(`^${m.t}: this device is read-only`)) as unknown });
      expect(gatePageMessage(m, typist, find).ok).toBe(true);
    }
    const looking: PageMessage[] = [{ t: 'open', id: 'r1' }, { t: 'close', id: 'r1' }, { t: 'diff', id: 'r1' }, { t: 'room', room: null }, { t: 'mute', id: 'r1', muted: true }, { t: 'quiet', quiet: true }];
    for (const m of looking) expect(gatePageMessage(m, viewer, find).ok).toBe(true);
    // Every message type has its row, and the typing ones are exactly those above.
    expect(Object.entries(PAGE_MESSAGE_NEEDS).filter(([, n]) => n.types).map(([t]) => t).sort()).toEqual(typing.map((m) => m.t).sort());
  });

  it('an unknown session is refused; an exited one is refused what needs a running program, and not its diff', () => {
    expect(gatePageMessage({ t: 'open', id: 'nope' }, typist, find)).toEqual({ ok: false, line: 'open: no session "nope"' });
    expect(gatePageMessage({ t: 'open', id: 'e1' }, typist, find)).toEqual({ ok: false, line: 'open: done is exited' });
    expect(gatePageMessage({ t: 'keys', id: 'e1', data: 'x' }, typist, find)).toEqual({ ok: false, line: 'keys: done is exited' });
    expect(gatePageMessage({ t: 'diff', id: 'e1' }, typist, find)).toEqual({ ok: true, session: exited });
    expect(gatePageMessage({ t: 'open', id: 'r1' }, typist, find)).toEqual({ ok: true, session: running });
  });
});

describe('BadFrames', () => {
  it(`more than ${MAX_BAD_FRAMES} within ${BAD_FRAME_WINDOW_MS} ms is too many; fewer, spread out, never are`, () => {
    const time = new FakeTime();
    const bad = new BadFrames(time);
    for (let i = 0; i < MAX_BAD_FRAMES; i++) expect(bad.note()).toBe(false);
    expect(bad.note()).toBe(true);

    const spread = new BadFrames(time);
    for (let i = 0; i < 200; i++) {
      expect(spread.note()).toBe(false);
      time.advance(BAD_FRAME_WINDOW_MS / MAX_BAD_FRAMES); // 20 in any 10 s, never 21
    }
    // The window slides: 20 now, then one more after 9.99 s is too many; after the window it is not.
    const slide = new BadFrames(time);
    for (let i = 0; i < MAX_BAD_FRAMES; i++) slide.note();
    time.advance(BAD_FRAME_WINDOW_MS - 10);
    expect(slide.note()).toBe(true);
    const later = new BadFrames(time);
    for (let i = 0; i < MAX_BAD_FRAMES; i++) later.note();
    time.advance(BAD_FRAME_WINDOW_MS);
    expect(later.note()).toBe(false);
  });
});
