// The agent lane reads the vendor mock's log while the mock appends to it (test/agents/lane.ts):
// a request's line, tens of KiB, can be seen half written, and must not fail the read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mockEntries } from '../agents/lane.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mock-log-'));
afterEach(() => fs.rmSync(path.join(dir, 'log.jsonl'), { force: true }));

describe("the mock's log as the lane reads it", () => {
  it('takes whole lines only: a line still being written is left for the next read', () => {
    const file = path.join(dir, 'log.jsonl');
    fs.writeFileSync(file, JSON.stringify({ at: 1, kind: 'request' }) + '\n' + '{"at": 2, "kind": "requ');
    expect(mockEntries(file)).toEqual([{ at: 1, kind: 'request' }]);
    fs.appendFileSync(file, 'est"}\n');
    expect(mockEntries(file).length).toBe(2);
  });

  it('is empty before the mock wrote anything', () => {
    expect(mockEntries(path.join(dir, 'log.jsonl'))).toEqual([]);
  });
});
