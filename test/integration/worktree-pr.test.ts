import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, destroyHome, makeHome } from '../helpers/home.js';
import { commitFile, gitIn, gitOk, lines, makeSandbox, removeSandbox, worktreeSession, type Sandbox } from './worktree-merge-fixture.js';

/**
 * `agent-board pr` without GitHub: without gh, one line and exit 14 and
 * nothing pushed; with a fake gh on PATH that records its arguments, and a
 * bare local repository as the remote, the push and the gh call it makes.
 */

let sb: Sandbox;
let bin: string;
let remote: string;
beforeEach(() => {
  sb = makeSandbox(makeHome());
  bin = path.join(sb.root, 'bin');
  fs.mkdirSync(bin);
  remote = path.join(sb.root, 'remote.git');
  gitIn(sb.root, 'init', '-q', '--bare', '-b', 'main', remote);
  gitIn(sb.repo, 'remote', 'add', 'origin', remote);
  gitIn(sb.repo, 'push', '-q', 'origin', 'main');
});
afterEach(() => {
  destroyHome(sb.home);
  removeSandbox(sb);
});

/** A PATH with git and nothing else of the machine's (so a gh installed here cannot be found). */
function pathWithGitOnly(): string {
  const gitPath = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
  fs.symlinkSync(gitPath, path.join(bin, 'git'));
  return bin;
}

describe('pr', () => {
  it('without gh: one line, exit 14, nothing pushed', async () => {
    const { w } = await worktreeSession(sb, 'nogh');
    commitFile(w.path, 'b.txt', 'one\n');
    const r = cli(sb.home, ['pr', 'nogh'], { env: { PATH: pathWithGitOnly() } });
    expect(r.code).toBe(14);
    expect(lines(r.stderr)).toEqual([
      'agent-board: pr needs the GitHub CLI (gh), which is not on PATH: install it (https://cli.github.com), or push agent/nogh and open the pull request yourself',
    ]);
    expect(gitOk(remote, 'rev-parse', '--verify', '--quiet', 'refs/heads/agent/nogh')).toBe(false);
  });

  it('with gh: pushes the branch, then gh pr create --title <the session> --head <branch> --base <base>', async () => {
    const record = path.join(sb.root, 'gh-args');
    fs.writeFileSync(path.join(bin, 'gh'), `#!/bin/sh\nprintf '%s\\0' "$@" > '${record}'\necho https://github.example/o/r/pull/7\n`, { mode: 0o755 });
    const { w } = await worktreeSession(sb, 'feature');
    const tip = commitFile(w.path, 'b.txt', 'one\n', 'add b');
    const r = cli(sb.home, ['pr', 'feature'], { env: { PATH: `${bin}${path.delimiter}${process.env.PATH}` } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('pushed agent/feature to origin; pull request: https://github.example/o/r/pull/7\n');
    expect(gitIn(remote, 'rev-parse', 'refs/heads/agent/feature')).toBe(tip);
    const args = fs.readFileSync(record, 'utf8').split('\0').slice(0, -1);
    expect(args).toEqual(['pr', 'create', '--title', 'feature', '--body', '- add b\n\nMade in agent-board session feature (shell).', '--head', 'agent/feature', '--base', 'main']);
  });

  it('with gh, uncommitted work is refused first (exit 12): nothing pushed, gh not called', async () => {
    const record = path.join(sb.root, 'gh-args');
    fs.writeFileSync(path.join(bin, 'gh'), `#!/bin/sh\ntouch '${record}'\n`, { mode: 0o755 });
    const { w } = await worktreeSession(sb, 'wip');
    fs.writeFileSync(path.join(w.path, 'notes.txt'), 'mine\n');
    const r = cli(sb.home, ['pr', 'wip'], { env: { PATH: `${bin}${path.delimiter}${process.env.PATH}` } });
    expect(r.code).toBe(12);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(fs.existsSync(record)).toBe(false);
    expect(gitOk(remote, 'rev-parse', '--verify', '--quiet', 'refs/heads/agent/wip')).toBe(false);
  });
});
