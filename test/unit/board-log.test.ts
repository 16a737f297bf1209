/** The board log: one line per event with an ISO stamp from the clock, 0600, bounded; a failed write told once. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOARD_LOG_MAX_BYTES, FileBoardLog, boardLogFile } from '../../src/client/feed/board-log.js';
import { FakeTime } from '../helpers/fake-time.js';
import { destroyHome, makeHome } from '../helpers/home.js';

let home: string;
beforeEach(() => {
  home = makeHome('ab-board-log-');
});
afterEach(() => destroyHome(home));

describe('FileBoardLog', () => {
  it('appends one stamped line per event, in a 0600 file in the home', () => {
    const time = new FakeTime(Date.UTC(2026, 0, 2, 3, 4, 5));
    const log = new FileBoardLog(home, time);
    log.write('first');
    time.advance(1500);
    log.write('second\nwith a stack');
    const file = boardLogFile(home);
    expect(path.dirname(file)).toBe(home);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe('2026-01-02T03:04:05.000Z first\n2026-01-02T03:04:06.500Z second | with a stack\n');
  });

  it('starts over once the next line would take it past BOARD_LOG_MAX_BYTES', () => {
    const log = new FileBoardLog(home, new FakeTime());
    const line = 'x'.repeat(100_000);
    for (let i = 0; i < 12; i++) log.write(line);
    const size = fs.statSync(boardLogFile(home)).size;
    expect(size).toBeLessThanOrEqual(BOARD_LOG_MAX_BYTES);
    expect(size).toBeLessThan(3 * 100_100); // 10 lines filled it, then it started over with 2
    expect(size).toBeGreaterThan(0);
  });

  it('a write that fails is told once per failure streak', () => {
    const told: string[] = [];
    const log = new FileBoardLog(home, new FakeTime());
    log.onWriteError((m) => told.push(m));
    fs.mkdirSync(boardLogFile(home)); // a directory where the file should be: every append fails
    log.write('a');
    log.write('b');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/^cannot write .*board\.log: /);
    fs.rmdirSync(boardLogFile(home));
    log.write('c');
    fs.rmSync(boardLogFile(home));
    fs.mkdirSync(boardLogFile(home));
    log.write('d');
    expect(told).toHaveLength(2);
  });
});
