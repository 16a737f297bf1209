/**
 * The board's reconnect timing on FakeTime, against a session with no runner (its socket is not
 * there, so each attempt is refused at once): the preview mirror's retries (PREVIEW_RETRY) and
 * the status link's backoff (its retryMs), then quiet until news.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PREVIEW_RETRY } from '../../src/client/link/retry-schedule.js';
import { PreviewMirror } from '../../src/client/feed/preview-mirror.js';
import { StatusLink } from '../../src/client/feed/status-link.js';
import { fakeSession } from '../helpers/chat.js';
import { FakeTime } from '../helpers/fake-time.js';
import { destroyHome, makeHome } from '../helpers/home.js';

let home: string;
beforeEach(() => {
  home = makeHome('ab-reconnect-');
});
afterEach(() => destroyHome(home));

/**
 * Lets the refused attempt come back (a missing socket fails within a tick; while it is on its way
 * its hello timeout is pending too), then checks the timers armed: the next retry, or none.
 */
async function settled(time: FakeTime, pending: number): Promise<void> {
  await new Promise((r) => setTimeout(r, 50));
  expect(time.pending).toBe(pending);
}

describe('PreviewMirror retry (FakeTime)', () => {
  it('tries again after each of PREVIEW_RETRY, then gives up; dispose cancels a pending retry', async () => {
    const id = fakeSession(home, 'gone');
    const time = new FakeTime();
    const mirror = new PreviewMirror(home, id, { clock: time, scheduler: time });
    const errors: string[] = [];
    mirror.onError((e) => errors.push(e));
    mirror.live();
    for (const delay of PREVIEW_RETRY.delaysMs) {
      await settled(time, 1);
      time.advance(delay - 1);
      expect(time.pending).toBe(1); // not yet
      time.advance(1); // the retry runs: another refused attempt
    }
    await settled(time, 0); // out of retries: no timer left
    expect(errors).toEqual([]); // a refused connection is no error, only a session without a runner
    expect(mirror.screen()).toBeNull();

    const again = new PreviewMirror(home, id, { clock: time, scheduler: time });
    again.live();
    await settled(time, 1);
    again.dispose();
    expect(time.pending).toBe(0);
    mirror.dispose();
  });
});

describe('StatusLink reconnect (FakeTime)', () => {
  it('backs off along retryMs while the session should have a runner, then waits for news (rearm)', async () => {
    const id = fakeSession(home, 'gone');
    const time = new FakeTime();
    let lost = 0;
    const link = new StatusLink({ home, id, retryMs: [100, 200], time: { clock: time, scheduler: time }, wantsRunner: () => true });
    link.onLost(() => lost++);
    link.connect();
    await settled(time, 1);
    expect(lost).toBe(1);
    time.advance(99);
    expect(lost).toBe(1);
    time.advance(1);
    await settled(time, 1);
    expect(lost).toBe(2);
    time.advance(200);
    await settled(time, 0);
    expect(lost).toBe(3); // past the last delay: no timer while it waits for news
    link.connect();
    expect(lost).toBe(3); // given up: connect alone does nothing
    link.rearm();
    link.connect();
    await settled(time, 1);
    expect(lost).toBe(4);
    link.dispose();
    expect(time.pending).toBe(0);
  });

  it('does not retry a session that should have no runner any more', async () => {
    const id = fakeSession(home, 'done');
    const time = new FakeTime();
    let lost = 0;
    const link = new StatusLink({ home, id, retryMs: [100], time: { clock: time, scheduler: time }, wantsRunner: () => false });
    link.onLost(() => lost++);
    link.connect();
    await settled(time, 0);
    expect(lost).toBe(1);
    link.dispose();
  });
});
