/**
 * A worktree session's counts follow every change to its worktree or its
 * branch, with nothing typed into the session (so no turn ends to count at):
 * an edit, a commit, a merge into the base by `agent-board merge` and by
 * plain git, a rebase, a checkout of another branch, `git update-ref` and a
 * reset from outside.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli } from '../helpers/home.js';
import { cleanUp, setup } from './worktree-live-helpers.js';
import { sh } from './worktree-new-helpers.js';

afterEach(cleanUp);

describe('a running worktree session follows its worktree and its branch', () => {
  it('edit, commit, merge (agent-board merge and plain git), rebase, checkout, update-ref and reset from outside', async () => {
    const { home, repo, wt, follows } = setup();
    await follows('the first count', { files: 0, ahead: 0, behind: 0, uncommitted: 0 });

    fs.appendFileSync(path.join(wt, 'a.txt'), 'edit\n');
    await follows('an edit', { files: 1, added: 1, uncommitted: 1 });

    sh(wt, 'commit', '-qam', 'work');
    await follows('a commit', { files: 1, added: 1, ahead: 1, uncommitted: 0 });

    const merged = cli(home, ['merge', 'live']);
    expect(merged.code, merged.stderr).toBe(0);
    await follows('agent-board merge', { files: 0, added: 0, ahead: 0, behind: 0 });

    fs.appendFileSync(path.join(wt, 'b.txt'), 'more\n');
    sh(wt, 'commit', '-qam', 'more work');
    await follows('a second commit', { files: 1, ahead: 1 });
    sh(repo, 'merge', '-q', '--no-ff', '--no-edit', 'agent/live');
    await follows('a merge with plain git in the main checkout', { files: 0, ahead: 0, behind: 1 });

    fs.writeFileSync(path.join(wt, 'c.txt'), 'c\n');
    sh(wt, 'add', 'c.txt');
    sh(wt, 'commit', '-qm', 'c');
    await follows('a commit of a new file', { files: 1, ahead: 1, behind: 1 });
    fs.writeFileSync(path.join(repo, 'm.txt'), 'm\n');
    sh(repo, 'add', 'm.txt');
    sh(repo, 'commit', '-qm', 'the base moves on');
    await follows('a commit on the base', { ahead: 1, behind: 2 });
    sh(wt, 'rebase', '-q', 'main');
    await follows('a rebase onto the base', { files: 1, ahead: 1, behind: 0 });

    sh(wt, 'switch', '-q', '-c', 'side', 'main');
    await follows('a checkout of another branch', { files: 0, ahead: 0, behind: 0, uncommitted: 0 });

    sh(repo, 'update-ref', 'refs/heads/side', 'agent/live');
    await follows('the branch moved by update-ref from the main checkout', { ahead: 1 });

    sh(wt, 'reset', '-q', '--hard', 'main');
    await follows('a reset', { files: 0, ahead: 0, uncommitted: 0 });
  }, 180_000);
});
