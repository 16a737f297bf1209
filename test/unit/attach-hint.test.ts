/**
 * The attach's note over a client's first frames (src/runner/stream/attach-hint.ts): drawn again once
 * the program's output pauses (it may have drawn over it), and taken away with a frame without it
 * at the client's first key or after HINT_MS.
 */
import { describe, expect, it } from 'vitest';
import { AttachHint, HINT_MS, HINT_REPAINT_MAX_MS, HINT_REPAINT_QUIET_MS, hintText } from '../../src/runner/stream/attach-hint.js';
import { ClientConn } from '../../src/runner/clients/client-conn.js';
import { FakeSocket } from '../helpers/fake-socket.js';
import { FakeTime } from '../helpers/fake-time.js';

function setup() {
  const time = new FakeTime();
  const c = new ClientConn(new FakeSocket().asSocket, () => undefined);
  c.goLive(0, []);
  const frames: (string | undefined)[] = [];
  const hint = new AttachHint(c, 'Ctrl-\\ detaches', { scheduler: time, frame: (_c, overlay) => void frames.push(overlay) });
  return { time, c, hint, frames };
}

describe('AttachHint', () => {
  it('goes after HINT_MS with one frame without it', () => {
    const t = setup();
    t.time.advance(HINT_MS - 1);
    expect(t.frames).toEqual([]);
    t.time.advance(1);
    expect(t.frames).toEqual([undefined]);
    expect(t.hint.showing).toBe(false);
  });

  it('the first key takes it away at once; later keys and output do nothing more', () => {
    const t = setup();
    t.hint.key();
    t.hint.key();
    t.hint.output();
    t.time.advance(HINT_MS * 2);
    expect(t.frames).toEqual([undefined]);
  });

  it('output that may cover it: drawn again once the output pauses, or at the latest while it flows', () => {
    const t = setup();
    t.hint.output();
    t.time.advance(HINT_REPAINT_QUIET_MS);
    expect(t.frames).toEqual(['Ctrl-\\ detaches']);
    // Output every 20 ms: never quiet, drawn again within HINT_REPAINT_MAX_MS anyway.
    for (let ms = 0; ms < HINT_REPAINT_MAX_MS; ms += 20) {
      t.hint.output();
      t.time.advance(20);
    }
    expect(t.frames).toEqual(['Ctrl-\\ detaches', 'Ctrl-\\ detaches']);
  });

  it('no frame for a client that is gone', () => {
    const t = setup();
    t.c.dispose();
    t.time.advance(HINT_MS);
    expect(t.frames).toEqual([]);
  });

  it('the text is drawable: no control characters, one line, bounded', () => {
    expect(hintText('a\x1b[2Jb\r\nc\x9bd')).toBe('a[2Jbcd');
    expect([...hintText('é'.repeat(100))]).toHaveLength(60);
  });
});
