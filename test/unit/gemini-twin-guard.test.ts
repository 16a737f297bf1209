/**
 * The runner's guard of a Gemini session's conversation (src/runner/session/gemini-twin-guard.ts):
 * when it looks (at once, often while Gemini starts, at activity changes, soon after a change in the
 * conversation's folder), with the conversation id the record has then, and what it logs.
 */
import { describe, expect, it } from 'vitest';
import { Emitter } from '../../src/core/lifetime.js';
import { FOLDER_SETTLE_MS, GeminiTwinGuard, TWIN_SWEEP_MS, TWIN_WATCH_MS } from '../../src/runner/session/gemini-twin-guard.js';
import type { TwinSweep } from '../../src/state/usage/gemini-twins.js';
import { FakeTime } from '../helpers/fake-time.js';

function rig(resumeId?: string) {
  const time = new FakeTime();
  const activity = new Emitter<string>();
  const looked: string[] = [];
  /** The folders each look was limited to ('everywhere' when it was not). */
  const where: string[] = [];
  const logs: string[] = [];
  const none = (): TwinSweep => ({ removed: [], mended: [], dirs: [], errors: [] });
  let next = none();
  const folders = new Map<string, Emitter<void>>();
  const record = { resumeId, cwd: '/p' };
  const guard = new GeminiTwinGuard({
    record: () => record,
    env: { HOME: '/h' },
    onActivity: (fn) => activity.event(fn),
    sweep: (q) => {
      looked.push(q.resumeId);
      where.push(q.dirs ? q.dirs.join(',') : 'everywhere');
      const r = next;
      next = { ...none(), dirs: r.dirs };
      return r;
    },
    watch: (dir, fn) => {
      const e = folders.get(dir) ?? new Emitter<void>();
      folders.set(dir, e);
      return e.event(fn);
    },
    log: (l) => logs.push(l),
    clock: time,
    scheduler: time,
  });
  return { time, activity, looked, where, logs, guard, record, folders, then: (r: Partial<TwinSweep>) => (next = { ...none(), ...r }) };
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
    r.then({ mended: ['/h/.gemini/tmp/p/chats/session-y-id-1.jsonl'], errors: ['cannot list /h/x: EACCES'] });
    r.time.advance(TWIN_SWEEP_MS);
    expect(r.logs).toEqual([
      'gemini: removed /h/.gemini/tmp/p/chats/session-x-id-1.jsonl, an empty twin of conversation id-1 that Gemini opened at its start: the next Gemini start in this project would have deleted the conversation with it',
      'gemini: cannot list /h/x: EACCES',
      "gemini: gave /h/.gemini/tmp/p/chats/session-y-id-1.jsonl back its metadata line (conversation id-1): another Gemini's start had deleted its start-up file, and Gemini could neither list nor resume it",
    ]);
    r.guard.dispose();
  });

  it("watches each folder the conversation's files are in, once, and looks FOLDER_SETTLE_MS after a change there (one look for a burst)", () => {
    const r = rig('id-1');
    r.then({ dirs: ['/h/chats'] });
    r.guard.start();
    r.time.advance(TWIN_WATCH_MS);
    expect(r.folders.size).toBe(1);
    const before = r.looked.length;
    const folder = r.folders.get('/h/chats')!;
    folder.fire();
    folder.fire();
    folder.fire();
    expect(r.looked).toHaveLength(before);
    r.time.advance(FOLDER_SETTLE_MS);
    expect(r.looked).toHaveLength(before + 1);
    folder.fire();
    r.time.advance(FOLDER_SETTLE_MS);
    expect(r.looked).toHaveLength(before + 2);
    // Once a folder is known, the frequent looks go there only; an activity change looks everywhere.
    expect(r.where.slice(0, 2)).toEqual(['everywhere', '/h/chats']);
    expect(r.where.at(-1)).toBe('/h/chats');
    r.activity.fire('busy');
    expect(r.where.at(-1)).toBe('everywhere');
    r.guard.dispose();
    folder.fire();
    r.time.advance(FOLDER_SETTLE_MS);
    expect(r.looked).toHaveLength(before + 3);
  });
});
