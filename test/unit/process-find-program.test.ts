/** Finding a program as the shell does (src/state/process/find-program.ts): the one lookup of PATH. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findProgram } from '../../src/state/process/find-program.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-find-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function folder(name: string, prog: 'executable' | 'plain' | 'folder' | null): string {
  const d = path.join(dir, name);
  fs.mkdirSync(d);
  if (prog === 'executable') fs.writeFileSync(path.join(d, 'prog'), '#!/bin/sh\n', { mode: 0o755 });
  if (prog === 'plain') fs.writeFileSync(path.join(d, 'prog'), 'not a program\n', { mode: 0o644 });
  if (prog === 'folder') fs.mkdirSync(path.join(d, 'prog'));
  return d;
}

describe('findProgram', () => {
  it('a bare name: the first executable file on PATH, past a folder of that name, a file that cannot run and empty entries', () => {
    const PATH = ['', folder('a', 'folder'), folder('b', 'plain'), folder('c', 'executable'), folder('d', 'executable')].join(path.delimiter);
    // As root, access(X_OK) passes for any file with an x bit: the plain one has none.
    expect(findProgram('prog', { env: { PATH } })).toBe(path.join(dir, 'c', 'prog'));
    expect(findProgram('other', { env: { PATH } })).toBeNull();
    expect(findProgram('prog', { env: {} })).toBeNull();
  });

  it('a name with a slash: that path, from the folder given, and never looked for on PATH', () => {
    const c = folder('c', 'executable');
    expect(findProgram('./prog', { cwd: c, env: { PATH: '' } })).toBe(path.join(c, 'prog'));
    expect(findProgram('c/prog', { cwd: dir })).toBe(path.join(c, 'prog'));
    // PATH holds c/prog (as dir/c/prog), but a path is taken from cwd alone, where there is none.
    expect(findProgram('c/prog', { cwd: c, env: { PATH: dir } })).toBeNull();
  });
});
