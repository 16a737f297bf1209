import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cliEnv } from '../helpers/home.js';
import { commitFile, gitOk, worktreeSession, useSandbox } from './worktree-merge-fixture.js';

/** rm --discard on a terminal (script(1) gives it one): the question counts what would be lost; only y deletes. */

const sb = useSandbox();

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `agent-board rm NAME --discard` on a pseudo-terminal, `answer` typed at it. */
function rmOnTerminal(name: string, answer: string): { code: number; output: string } {
  const command = [process.execPath, BIN, 'rm', name, '--discard'].map(quote).join(' ');
  const r = spawnSync('script', ['-qec', command, '/dev/null'], { env: cliEnv(sb.home), input: answer, encoding: 'utf8', timeout: 20_000 });
  return { code: r.status ?? -1, output: r.stdout };
}

describe('rm --discard asks on a terminal', () => {
  it('no keeps everything (exit 1); y deletes worktree and branch', async () => {
    const { w } = await worktreeSession(sb, 'ask');
    commitFile(w.path, 'b.txt', 'one\n');
    fs.writeFileSync(path.join(w.path, 'notes.txt'), 'mine\n');
    const no = rmOnTerminal('ask', 'n\n');
    expect(no.output).toContain(`rm --discard deletes worktree ${w.path} and branch agent/ask with 1 uncommitted path and 1 commit not merged into main, lost for good. Delete? [y/N]`);
    expect(no.output).toContain('kept ask, its worktree and its branch: nothing was deleted');
    expect(no.code).toBe(1);
    expect(fs.existsSync(path.join(w.path, 'notes.txt'))).toBe(true);
    const yes = rmOnTerminal('ask', 'y\n');
    expect(yes.code).toBe(0);
    expect(yes.output).toContain('removed ask; discarded worktree');
    expect(fs.existsSync(w.path)).toBe(false);
    expect(gitOk(sb.repo, 'rev-parse', '--verify', '--quiet', 'refs/heads/agent/ask')).toBe(false);
  });
});
