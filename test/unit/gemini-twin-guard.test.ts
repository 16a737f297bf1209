/**
 * The runner's guard of a Gemini session's conversation (src/runner/session/gemini-twin-guard.ts):
 * when it looks for empty twins (at once, often while Gemini starts, then at activity changes), with
 * the conversation id the record has then, and what it logs.
 */
import { describe, expect, it } from 'vitest';
import { Emitter } from '../../src/core/lifetime.js';
import { GeminiTwinGuard, TWIN_SWEEP_MS, TWIN_WATCH_MS } from '../../src/runner/session/gemini-twin-guard.js';
import type { TwinSweep } from '../../src/state/usage/gemini-twins.js';
import { FakeTime } from '../helpers/fake-time.js';

function rig(resumeId?: string) {
  const time = new FakeTime();
  const activity = new Emitter<string>();
  const looked: string[] = [];
  const logs: string[] = [];
  let next: TwinSweep = { removed: [], errors: [] };
  const record = { resumeId, cwd: '/p' };
  const guard = new GeminiTwinGuard({
    record: () => record,
    env: { HOME: '/h' },
    onActivity: (fn) => activity.event(fn),
    sweep: (q) => {
      looked.push(q.resumeId);
      const r = next;
      next = { removed: [], errors: [] };
      return r;
    },
    log: (l) => logs.push(l),
    scheduler: time,
  });
  return { time, activity, looked, logs, guard, record, then: (r: TwinSweep) => (next = r) };
}

describe("the runner's guard of a Gemini conversation", () => {
  it('looks at once, every TWIN_SWEEP_MS for TWIN_WATCH_MS, then only when the activity changes', () => {
    const r = rig('id-1');
    r.guard.start();
    expect(r.looked).toHaveLength(1);
    r.time.advance(TWIN_SWEEP_MS);
    expect(r.looked).toHaveLength(2);
    r.time.advance(TWIN_WATCH_MS);
    const during = r.looked.length;
    expect(during).toBe(1 + TWIN_WATCH_MS / TWIN_SWEEP_MS);
    r.time.advance(10 * TWIN_WATCH_MS);
    expect(r.looked).toHaveLength(during);
    r.activity.fire('busy');
    r.activity.fire('idle');
    expect(r.looked).toHaveLength(during + 2);
    r.guard.dispose();
    r.activity.fire('busy');
    expect(r.looked).toHaveLength(during + 2);
  });

  it('follows the id the record has when it looks (a fork learns its own after the start), and looks for none without one', () => {
    const r = rig(undefined);
    r.guard.start();
    r.time.advance(TWIN_SWEEP_MS * 3);
    expect(r.looked).toEqual([]);
    r.record.resumeId = 'forked';
    r.time.advance(TWIN_SWEEP_MS);
    expect(r.looked).toEqual(['forked']);
    r.guard.dispose();
  });

  it('logs each removal, and each error line once', () => {
    const r = rig('id-1');
    r.then({ removed: ['/h/.gemini/tmp/p/chats/session-x-id-1.jsonl'], errors: ['cannot list /h/x: EACCES'] });
    r.guard.start();
    r.then({ removed: [], errors: ['cannot list /h/x: EACCES'] });
    r.time.advance(TWIN_SWEEP_MS);
    expect(r.logs).toEqual([
      'gemini: removed /h/.gemini/tmp/p/chats/session-x-id-1.jsonl, an empty twin of conversation id-1 that Gemini opened at its start: the next Gemini start in this project would have deleted the conversation with it',
      'gemini: cannot list /h/x: EACCES',
    ]);
    r.guard.dispose();
  });
});
