import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { branchSlug, readRepoConfig, worktreePath } from '../../src/state/worktree/worktree-config.js';
import { countLines, numstatByPath, parseStatus } from '../../src/state/worktree/worktree-stats.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-wtc-'));
  dirs.push(d);
  return d;
}

describe('where worktrees live', () => {
  it('beside the main checkout by default; the env variable, then the repository config, say otherwise', () => {
    expect(worktreePath('/src/app', 'agent/api', {}, {})).toBe('/src/app.worktrees/agent-api');
    expect(worktreePath('/src/app', 'agent/api', { dir: '../trees' }, {})).toBe('/src/trees/agent-api');
    expect(worktreePath('/src/app', 'agent/api', { dir: '../trees' }, { AGENT_BOARD_WORKTREE_DIR: '/wt' })).toBe('/wt/agent-api');
    expect(branchSlug('feat/x y')).toBe('feat-x-y');
  });

  it('reads .agent-board.json: none is nothing, a malformed one is one line naming the file', () => {
    const d = tmp();
    expect(readRepoConfig(d)).toEqual({});
    fs.writeFileSync(path.join(d, '.agent-board.json'), JSON.stringify({ worktree: { dir: 'x', setup: 'npm ci' }, other: 1 }));
    expect(readRepoConfig(d)).toEqual({ dir: 'x', setup: 'npm ci' });
    fs.writeFileSync(path.join(d, '.agent-board.json'), JSON.stringify({ worktree: { setup: 3 } }));
    expect(() => readRepoConfig(d)).toThrow(/"worktree.setup" must be a command/);
    fs.writeFileSync(path.join(d, '.agent-board.json'), '{');
    expect(() => readRepoConfig(d)).toThrow(/is not JSON/);
  });
});

describe("git's output, counted", () => {
  it('numstat: each file with its lines; a binary file is a file without lines; a name may hold a tab', () => {
    const n = numstatByPath('3\t1\ta.ts\0-\t-\timg.png\0' + '10\t0\tb/c\td.ts\0');
    expect([...n]).toEqual([
      ['a.ts', { added: 3, removed: 1 }],
      ['img.png', { added: 0, removed: 0 }],
      ['b/c\td.ts', { added: 10, removed: 0 }],
    ]);
    expect(numstatByPath('').size).toBe(0);
  });

  it('status: one entry a path, a rename once', () => {
    const e = parseStatus(' M a.ts\0R  new.ts\0old.ts\0?? n.txt\0');
    expect(e).toEqual([{ xy: ' M', path: 'a.ts' }, { xy: 'R ', path: 'new.ts' }, { xy: '??', path: 'n.txt' }]);
  });

  it("a new file's lines as git counts them added", () => {
    const d = tmp();
    fs.writeFileSync(path.join(d, 'a'), 'x\ny\n');
    fs.writeFileSync(path.join(d, 'b'), 'x\ny');
    fs.writeFileSync(path.join(d, 'c'), Buffer.from([1, 0, 10]));
    expect([countLines(path.join(d, 'a')), countLines(path.join(d, 'b')), countLines(path.join(d, 'c')), countLines(path.join(d, 'none'))]).toEqual([2, 2, 0, 0]);
  });
});
