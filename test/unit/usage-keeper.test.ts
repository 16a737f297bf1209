import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Emitter } from '../../src/core/lifetime.js';
import { PLAIN_USAGE_READER } from '../../src/core/usage/plain-reader.js';
import { priceTable } from '../../src/core/usage/prices.js';
import type { SessionUsage } from '../../src/core/usage/usage-types.js';
import { AFTER_TURN_READS_MS, BUSY_READ_MS, UsageKeeper } from '../../src/runner/usage/usage-keeper.js';
import { FakeTime } from '../helpers/fake-time.js';

const line = (model: string, input: number, output: number, key?: string) => `${JSON.stringify({ at: '2026-12-01T00:00:00Z', model, tokens: { input, output }, key })}\n`;

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-keeper-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function rig(file: string | null) {
  const time = new FakeTime();
  const activity = new Emitter<string>();
  const written: SessionUsage[] = [];
  const logs: string[] = [];
  let where = file;
  const keeper = new UsageKeeper({
    locate: () => (where ? { file: where, reader: PLAIN_USAGE_READER } : null),
    onActivity: (fn) => activity.event(fn),
    write: (u) => written.push(u),
    log: (l) => logs.push(l),
    prices: priceTable(),
    clock: time,
    scheduler: time,
  });
  return { time, activity, written, logs, keeper, moveTo: (f: string) => (where = f) };
}

describe("the runner's usage keeper", () => {
  it('reads at a turn end and every BUSY_READ_MS while busy, writing only what changed', () => {
    const f = path.join(dir, 's.jsonl');
    fs.writeFileSync(f, line('claude-sonnet-4-5', 1000, 100));
    const r = rig(f);
    r.keeper.read();
    expect(r.written).toHaveLength(1);
    expect(r.written[0]).toMatchObject({ tokens: { input: 1000, output: 100 }, messages: 1, file: f, skipped: 0, costUsd: 0.0045 });
    expect(r.written[0]!.updatedAt).toBe(new Date(r.time.now()).toISOString());

    r.activity.fire('busy');
    fs.appendFileSync(f, line('claude-sonnet-4-5', 10, 10));
    r.time.advance(BUSY_READ_MS - 1);
    expect(r.written).toHaveLength(1);
    r.time.advance(1);
    expect(r.written).toHaveLength(2);
    expect(r.written[1]!.tokens.input).toBe(1010);
    // Nothing new: nothing written.
    r.time.advance(BUSY_READ_MS);
    expect(r.written).toHaveLength(2);

    fs.appendFileSync(f, line('claude-sonnet-4-5', 5, 5));
    r.activity.fire('idle');
    expect(r.written).toHaveLength(3);
    expect(r.written[2]!.messages).toBe(3);
    // A message written after the turn's end (Claude Code writes its last after its Stop hook) is read soon after.
    fs.appendFileSync(f, line('claude-sonnet-4-5', 7, 7));
    r.time.advance(AFTER_TURN_READS_MS[0]!);
    expect(r.written).toHaveLength(4);
    expect(r.written[3]!.messages).toBe(4);
    r.time.advance(AFTER_TURN_READS_MS[1]! - AFTER_TURN_READS_MS[0]!);
    expect(r.written).toHaveLength(4);
    // Idle after that: nothing is read until the next turn.
    fs.appendFileSync(f, line('claude-sonnet-4-5', 5, 5));
    r.time.advance(BUSY_READ_MS * 4);
    expect(r.written).toHaveLength(4);
    expect(r.time.pending).toBe(0);
    r.keeper.dispose();
  });

  it('counts a skipped line, logs it once, and starts over on a new transcript', () => {
    const f = path.join(dir, 'a.jsonl');
    fs.writeFileSync(f, `${line('m', 1, 1)}not json\n`);
    const r = rig(f);
    r.keeper.read();
    fs.appendFileSync(f, 'still not\n');
    r.keeper.read();
    expect(r.written.at(-1)!.skipped).toBe(2);
    expect(r.logs.filter((l) => l.includes('could not be read'))).toHaveLength(1);
    const g = path.join(dir, 'b.jsonl');
    fs.writeFileSync(g, line('m', 7, 7));
    r.moveTo(g);
    r.activity.fire('busy');
    r.activity.fire('waiting');
    expect(r.written.at(-1)).toMatchObject({ file: g, messages: 1, skipped: 0, tokens: { input: 7 }, costUsd: null, unpriced: ['m'] });
    r.keeper.dispose();
  });

  it('a transcript not there yet is said once, and read when it comes', () => {
    const f = path.join(dir, 'later.jsonl');
    const r = rig(f);
    r.keeper.read();
    r.keeper.read();
    expect(r.logs.filter((l) => l.includes('ENOENT'))).toHaveLength(1);
    expect(r.written).toEqual([]);
    fs.writeFileSync(f, line('m', 3, 3));
    r.keeper.read();
    expect(r.written).toHaveLength(1);
    r.keeper.dispose();
  });
});
