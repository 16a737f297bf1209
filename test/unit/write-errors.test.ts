/**
 * The one mapping of a write that the disk refused (src/state/write-errors.ts, src/core/write-failure.ts):
 * each kind (ENOSPC, EDQUOT, EROFS, EACCES, EPERM) is one line naming what and where and what to
 * do, exit 15; an atomic write that fails leaves no temporary file; the CLI's last resort says it
 * in one line too, never a stack. EDQUOT and EACCES cannot be had for real here (no quota on a
 * tmpfs; root bypasses permissions), so the system call is made to fail with them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXIT, UserError } from '../../src/state/errors.js';
import { cannotWriteError, writeFailureCode, writeFileAtomic, writing } from '../../src/state/write-errors.js';
import { appendChat } from '../../src/state/chat-store.js';
import { claimRevive } from '../../src/state/revive-claim.js';
import { sessionDir } from '../../src/state/paths.js';
import { REAL_TIME } from '../helpers/real-time.js';

const printed: string[] = [];
vi.mock('../../src/cli/print.js', () => ({ printErr: (t: string) => void printed.push(t) }));
const { reportFailure } = await import('../../src/cli/fail.js');

/** An error as fs throws it. */
const fsError = (code: string, syscall = 'write', file?: string) => Object.assign(new Error(`${code}: refused, ${syscall}`), { code, syscall, ...(file ? { path: file } : {}) });

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-write-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

const CASES = [
  ['ENOSPC', 'the disk is full (ENOSPC); free some space and run it again'],
  ['EDQUOT', 'your disk quota is used up (EDQUOT); free some space and run it again'],
  ['EROFS', 'the file system is read-only (EROFS); make it writable and run it again'],
  ['EACCES', 'permission denied (EACCES); make it writable for you and run it again'],
  ['EPERM', 'the operation is not permitted (EPERM); make it writable for you and run it again'],
] as const;

describe('a write the disk refused', () => {
  it.each(CASES)('%s: writeFileAtomic leaves no temporary file and the old content; writing() makes it one line, exit 15', (code, advice) => {
    const file = path.join(dir, 'host.json');
    fs.writeFileSync(file, 'old\n');
    vi.spyOn(fs, 'writeSync').mockImplementation(() => {
      throw fsError(code);
    });
    let caught: unknown;
    try {
      writing("the session's record", file, () => writeFileAtomic(file, 'new\n', true));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UserError);
    expect(caught).toMatchObject({ exitCode: EXIT.cannotWrite, message: `could not write the session's record (${file}): ${advice}` });
    vi.restoreAllMocks();
    expect(fs.readdirSync(dir)).toEqual(['host.json']);
    expect(fs.readFileSync(file, 'utf8')).toBe('old\n');
  });

  it('a failure of the rename leaves no temporary file either', () => {
    const file = path.join(dir, 'room.json');
    vi.spyOn(fs, 'renameSync').mockImplementation(() => {
      throw fsError('EDQUOT', 'rename');
    });
    expect(() => writeFileAtomic(file, '{}\n')).toThrow(/EDQUOT/);
    vi.restoreAllMocks();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('other errors go on as they were; fs.watch ENOSPC (the watch limit, not a disk) is not one of these', () => {
    expect(() => writing('x', 'f', () => {
      throw fsError('EISDIR');
    })).toThrow(/^EISDIR/);
    expect(writeFailureCode(fsError('ENOSPC', 'watch'))).toBeNull();
    expect(writeFailureCode(new Error('plain'))).toBeNull();
    expect(writeFailureCode(fsError('EDQUOT', 'open'))).toBe('EDQUOT');
  });

  it.each(['EDQUOT', 'EACCES'])('%s: a chat post is one line naming the room, nothing posted, no lock or temporary file left', async (code) => {
    const home = dir;
    await appendChat(home, 'r1', { from: 'human', kind: 'human', text: 'first', mentions: [] }, REAL_TIME);
    const real = fs.writeSync.bind(fs) as (...a: unknown[]) => number;
    vi.spyOn(fs, 'writeSync').mockImplementation((...a: unknown[]) => {
      if (typeof a[1] !== 'string' && Buffer.isBuffer(a[1]) && a[1].toString().includes('second')) throw fsError(code);
      return real(...a);
    });
    await expect(appendChat(home, 'r1', { from: 'human', kind: 'human', text: 'second', mentions: [] }, REAL_TIME)).rejects.toMatchObject({
      exitCode: EXIT.cannotWrite,
      message: expect.stringMatching(new RegExp(`^could not write room r1's chat \\(.+chat\\.jsonl\\): .*\\(${code}\\); .* and post it again$`)),
    });
    vi.restoreAllMocks();
    expect(fs.readFileSync(path.join(home, 'rooms', 'r1', 'chat.jsonl'), 'utf8')).not.toContain('second');
    expect(fs.readdirSync(path.join(home, 'rooms', 'r1')).sort()).toEqual(['chat.jsonl', 'guard.json']);
  });

  it('EDQUOT on a revive claim: one line, exit 15, and no half-made claim left to wait out', () => {
    fs.mkdirSync(sessionDir(dir, 'a1b2c3d4'), { recursive: true });
    vi.spyOn(fs, 'writeSync').mockImplementation(() => {
      throw fsError('EDQUOT');
    });
    expect(() => claimRevive(dir, 'a1b2c3d4', REAL_TIME.clock)).toThrow(expect.objectContaining({ exitCode: EXIT.cannotWrite, message: expect.stringMatching(/^could not write the session's revive claim \(.+revive\.lock\): your disk quota is used up \(EDQUOT\)/) }));
    vi.restoreAllMocks();
    expect(fs.readdirSync(sessionDir(dir, 'a1b2c3d4'))).toEqual([]);
  });
});

describe("the CLI's last resort (src/cli/fail.ts)", () => {
  afterEach(() => {
    printed.length = 0;
    process.exitCode = 0;
  });

  it.each(['EACCES', 'EDQUOT', 'ENOSPC'])('%s that no path named is still one line naming the file, exit 15, no stack', (code) => {
    reportFailure(fsError(code, 'open', '/somewhere/file.json'));
    expect(printed).toEqual([`agent-board: ${cannotWriteError('a file', '/somewhere/file.json', code).message}\n`]);
    expect(printed[0]).not.toMatch(/unexpected|\n\s+at /);
    expect(process.exitCode).toBe(15);
  });

  it('anything else is still the unexpected error it is', () => {
    reportFailure(new Error('a bug'));
    expect(printed[0]).toMatch(/^agent-board: unexpected error: Error: a bug/);
    expect(process.exitCode).toBe(1);
  });
});
