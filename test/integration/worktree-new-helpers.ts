import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Commits need an author; the tests run as root in CI with no git config of their own. */
export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};
Object.assign(process.env, GIT_ENV); // the runners, and the shells in them, inherit it

export function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } });
}

/** A real repository in a fresh temp folder (`<tmp>/repo`), on `main`, with `files` committed. */
export function makeRepo(files: Record<string, string> = { 'README.md': 'hello\n' }): { root: string; repo: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ab-wt-')));
  const repo = path.join(root, 'repo');
  fs.mkdirSync(repo);
  sh(repo, 'init', '-q', '-b', 'main');
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(repo, name)), { recursive: true });
    fs.writeFileSync(path.join(repo, name), text);
  }
  sh(repo, 'add', '-A');
  sh(repo, 'commit', '-q', '-m', 'init');
  return { root, repo };
}
