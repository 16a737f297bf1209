import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, destroyHome, makeHome, waitForPeekLines } from '../helpers/home.js';
import { makeRepo, sh } from './worktree-new-helpers.js';

interface Rec {
  id: string;
  cwd: string;
  command: string;
  args: string[];
  agent: string;
  worktree?: { repo: string; path: string; branch: string; base: string; baseCommit: string; createdBranch: boolean };
  worktreeSetup?: { command: string; startedAt?: string };
}

const homes: string[] = [];
const roots: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) destroyHome(h);
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

function setup(files?: Record<string, string>) {
  const home = makeHome();
  const r = makeRepo(files);
  homes.push(home);
  roots.push(r.root);
  return { home, ...r };
}

function record(home: string, name: string): Rec {
  const list = JSON.parse(cli(home, ['ls', '--json']).stdout) as Array<Rec & { name: string }>;
  return list.find((s) => s.name === name)!;
}

describe('new --worktree', () => {
  it('makes agent/<name> from HEAD beside the main checkout and runs the session there', async () => {
    const { home, root, repo } = setup();
    const r = cli(home, ['new', '--name', 'api', '--cwd', repo, '--worktree', '--', '/bin/sh']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rec = record(home, 'api');
    const dir = path.join(root, 'repo.worktrees', 'agent-api');
    expect(rec.cwd).toBe(dir);
    expect(rec.worktree).toEqual({ repo, path: dir, branch: 'agent/api', base: 'main', baseCommit: sh(repo, 'rev-parse', 'HEAD').trim(), createdBranch: true });
    expect(sh(dir, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('agent/api');
    expect(rec.command).toBe('/bin/sh');
    expect(rec.worktreeSetup).toBeUndefined();
    cli(home, ['send', 'api', 'pwd']);
    await waitForPeekLines(home, 'api', 'the worktree as its folder', (l) => l.includes(dir));
    // No .worktreeinclude: nothing but the checkout.
    expect(fs.readdirSync(dir).sort()).toEqual(['.git', 'README.md']);
  });

  it('copies what .worktreeinclude names (modes kept, no symlink out of the repository) and honours AGENT_BOARD_WORKTREE_DIR', () => {
    const { home, root, repo } = setup({ '.gitignore': '.env\nconf/\nout-link\nbuild/\n', '.worktreeinclude': '.env\nconf/\nout-link\n', 'src/a.ts': 'x\n' });
    fs.writeFileSync(path.join(repo, '.env'), 'SECRET=1\n', { mode: 0o600 });
    fs.mkdirSync(path.join(repo, 'conf', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'conf', 'deep', 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    fs.mkdirSync(path.join(repo, 'build'));
    fs.writeFileSync(path.join(repo, 'build', 'big.bin'), 'not wanted');
    fs.writeFileSync(path.join(repo, 'notes.txt'), 'untracked, not listed');
    fs.symlinkSync('/etc/passwd', path.join(repo, 'out-link'));
    const where = path.join(root, 'elsewhere');
    const r = cli(home, ['new', '--name', 'inc', '--cwd', repo, '--worktree', 'feat/inc', '--', '/bin/sh'], { env: { AGENT_BOARD_WORKTREE_DIR: where } });
    expect(r.code).toBe(0);
    const dir = path.join(where, 'feat-inc');
    expect(record(home, 'inc').worktree?.branch).toBe('feat/inc');
    expect(fs.readFileSync(path.join(dir, '.env'), 'utf8')).toBe('SECRET=1\n');
    expect(fs.statSync(path.join(dir, '.env')).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(dir, 'conf', 'deep', 'run.sh')).mode & 0o777).toBe(0o755);
    expect(fs.existsSync(path.join(dir, 'build'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'notes.txt'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'out-link'))).toBe(false);
    expect(r.stderr).toMatch(/^agent-board: \.worktreeinclude: out-link: a symlink out of the repository \(\/etc\/passwd\), not followed\n$/);
  });

  it("runs the setup (the repository's config, or --setup) before the program, its output in the session, once: restart does not run it again", async () => {
    const { home, root, repo } = setup({ '.agent-board.json': JSON.stringify({ worktree: { dir: '../trees', setup: 'echo SETUP-FROM-CONFIG; touch setup-ran' } }) });
    expect(cli(home, ['new', '--name', 'cfg', '--cwd', repo, '--worktree', '--', '/bin/sh']).code).toBe(0);
    const dir = path.join(root, 'trees', 'agent-cfg');
    await waitForPeekLines(home, 'cfg', 'the setup output', (l) => l.some((x) => x === 'SETUP-FROM-CONFIG'));
    expect(fs.existsSync(path.join(dir, 'setup-ran'))).toBe(true);
    const rec = record(home, 'cfg');
    expect(rec.command).toBe('/bin/sh');
    expect(rec.args).toEqual([]);
    expect(rec.worktreeSetup?.startedAt).toBeTruthy();
    fs.rmSync(path.join(dir, 'setup-ran'));
    expect(cli(home, ['restart', 'cfg']).code).toBe(0);
    cli(home, ['send', 'cfg', 'echo after-restart']);
    const lines = await waitForPeekLines(home, 'cfg', 'the restarted shell', (l) => l.includes('after-restart'));
    expect(lines.join('\n')).not.toContain('SETUP-FROM-CONFIG');
    expect(fs.existsSync(path.join(dir, 'setup-ran'))).toBe(false);

    // A failing --setup (over the config's) says so in the session, and the program starts anyway.
    expect(cli(home, ['new', '--name', 'bad', '--cwd', repo, '--worktree', '--setup', 'echo trying; exit 3', '--', '/bin/sh']).code).toBe(0);
    await waitForPeekLines(home, 'bad', 'the failure line', (l) => l.includes('agent-board: setup failed (exit code 3); starting the program anyway'));
    cli(home, ['send', 'bad', 'echo still-here']);
    await waitForPeekLines(home, 'bad', 'the program running', (l) => l.includes('still-here'));
  });

  it('refuses, one line each with its own exit code: not a repository (9), the branch exists (10), git missing (11)', () => {
    const { home, root, repo } = setup();
    const notRepo = cli(home, ['new', '--cwd', root, '--worktree', '--', '/bin/sh']);
    expect(notRepo.code).toBe(9);
    expect(notRepo.stderr).toBe(`agent-board: ${root} is not in a git repository: --worktree needs one (cd into it or pass --cwd)\n`);
    sh(repo, 'branch', 'agent/taken');
    const exists = cli(home, ['new', '--name', 'taken', '--cwd', repo, '--worktree', '--', '/bin/sh']);
    expect(exists.code).toBe(10);
    expect(exists.stderr).toBe('agent-board: branch agent/taken exists already: pass --reuse-branch to work on it, or name another with --worktree BRANCH\n');
    const noGitPath = path.join(root, 'empty-bin');
    fs.mkdirSync(noGitPath);
    const missing = cli(home, ['new', '--cwd', repo, '--worktree', '--', '/bin/sh'], { env: { PATH: noGitPath } });
    expect(missing.code).toBe(11);
    expect(missing.stderr).toBe('agent-board: git is not installed (or not on PATH): install git to use worktrees\n');
    const badBase = cli(home, ['new', '--cwd', repo, '--worktree', '--base', 'nope', '--', '/bin/sh']);
    expect(badBase.code).toBe(2);
    expect(badBase.stderr.trim().split('\n')).toHaveLength(1);
    expect(cli(home, ['new', '--base', 'main', '--', '/bin/sh']).code).toBe(2);
    // Nothing was made by the refusals.
    expect(JSON.parse(cli(home, ['ls', '--json']).stdout)).toEqual([]);
    expect(fs.existsSync(path.join(root, 'repo.worktrees', 'agent-taken'))).toBe(false);
  });

  it('reuses an existing branch with --reuse-branch, and starts from --base', () => {
    const { home, repo } = setup();
    sh(repo, 'checkout', '-q', '-b', 'feature');
    fs.writeFileSync(path.join(repo, 'f.txt'), 'feature\n');
    sh(repo, 'add', 'f.txt');
    sh(repo, 'commit', '-q', '-m', 'feature work');
    const featureTip = sh(repo, 'rev-parse', 'HEAD').trim();
    sh(repo, 'checkout', '-q', 'main');
    expect(cli(home, ['new', '--name', 'again', '--cwd', repo, '--worktree', 'feature', '--reuse-branch', '--', '/bin/sh']).code).toBe(0);
    const again = record(home, 'again');
    expect(again.worktree).toMatchObject({ branch: 'feature', base: 'main', createdBranch: false });
    expect(sh(again.cwd, 'rev-parse', 'HEAD').trim()).toBe(featureTip);
    expect(cli(home, ['new', '--name', 'from-feature', '--cwd', repo, '--worktree', '--base', 'feature', '--', '/bin/sh']).code).toBe(0);
    const from = record(home, 'from-feature');
    expect(from.worktree).toMatchObject({ branch: 'agent/from-feature', base: 'feature', baseCommit: featureTip, createdBranch: true });
    // A kind is still recognised from the program (here the demo agent by --agent).
    expect(cli(home, ['new', '--name', 'demo-wt', '--cwd', repo, '--worktree', '--agent', 'demo']).code).toBe(0);
    const demo = record(home, 'demo-wt');
    expect(demo.agent).toBe('demo');
    expect(demo.cwd.endsWith('agent-demo-wt')).toBe(true);
  });
});
