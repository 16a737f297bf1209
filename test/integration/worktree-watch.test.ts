/**
 * The worktree's watch names what changed, on a real folder with real
 * inotify: a file, a new folder and what is made in it at once, a folder
 * deleted and made again (watched afresh, not by the dead watch of the old
 * one), and git's own `.git` and `node_modules` left out.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchWorktree, type WorktreeWatch } from '../../src/state/worktree/worktree-watch.js';
import { waitFor } from '../helpers/home.js';

let root: string;
let watch: WorktreeWatch | null = null;
afterEach(() => {
  watch?.dispose();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('watchWorktree', () => {
  it('names each changed path, follows folders that come, go and come back, and leaves .git and node_modules alone', async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ab-wtw-')));
    fs.mkdirSync(path.join(root, 'src'));
    fs.mkdirSync(path.join(root, 'node_modules'));
    fs.writeFileSync(path.join(root, '.git'), 'gitdir: elsewhere\n');
    const seen: Array<string | null> = [];
    watch = watchWorktree(root, (p) => seen.push(p));
    const saw = (p: string) => waitFor(`a change of ${p}`, () => seen.includes(p));

    fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'a\n');
    await saw('src/a.ts');
    fs.mkdirSync(path.join(root, 'src', 'deep'));
    await saw('src/deep');
    fs.writeFileSync(path.join(root, 'src', 'deep', 'b.ts'), 'b\n');
    await saw('src/deep/b.ts');

    fs.rmSync(path.join(root, 'src', 'deep'), { recursive: true });
    await saw('src/deep');
    seen.length = 0;
    fs.mkdirSync(path.join(root, 'src', 'deep'));
    await saw('src/deep');
    fs.writeFileSync(path.join(root, 'src', 'deep', 'c.ts'), 'c\n');
    await saw('src/deep/c.ts');

    fs.writeFileSync(path.join(root, 'node_modules', 'x.js'), 'x\n');
    fs.writeFileSync(path.join(root, '.git'), 'gitdir: moved\n');
    fs.writeFileSync(path.join(root, 'last.txt'), 'l\n');
    await saw('last.txt');
    expect(seen.filter((p) => p === null || p.includes('node_modules') || p === '.git')).toEqual([]);
    expect(watch.complete).toBe(true);
  });
});
