/**
 * Where a session's worktree goes and what a repository asks of a new one
 * (docs/worktrees.md, "Where worktrees live"): `AGENT_BOARD_WORKTREE_DIR`,
 * else `.agent-board.json`'s `worktree.dir` at the repository root, else a
 * sibling of the main checkout, `<parent>/<repo name>.worktrees`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EXIT, UserError } from '../errors.js';

/** The repository's own settings file, at its root. */
export const REPO_CONFIG_FILE = '.agent-board.json';

export interface RepoWorktreeConfig {
  /** Where worktrees go; relative to the repository root. */
  dir?: string;
  /** A command run in the session before its program, on its first start. */
  setup?: string;
}

/** `.agent-board.json`'s `worktree` object; none is `{}`, a malformed one a UserError naming the file. */
export function readRepoConfig(repo: string): RepoWorktreeConfig {
  const file = path.join(repo, REPO_CONFIG_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return {}; // no file: nothing configured
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UserError(`${file} is not JSON: ${(err as Error).message}`, EXIT.usage);
  }
  const wt = (value as { worktree?: unknown } | null)?.worktree;
  if (wt === undefined) return {};
  if (typeof wt !== 'object' || wt === null) throw new UserError(`${file}: "worktree" must be an object`, EXIT.usage);
  const { dir, setup } = wt as Record<string, unknown>;
  if (dir !== undefined && (typeof dir !== 'string' || dir === '')) throw new UserError(`${file}: "worktree.dir" must be a folder name`, EXIT.usage);
  if (setup !== undefined && typeof setup !== 'string') throw new UserError(`${file}: "worktree.setup" must be a command (a string)`, EXIT.usage);
  return { ...(dir ? { dir } : {}), ...(setup ? { setup } : {}) };
}

/** A branch as one folder name: `agent/api` -> `agent-api`. */
export function branchSlug(branch: string): string {
  return branch.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '') || 'worktree';
}

/** The folder worktrees of `repo` go in. */
export function worktreesDir(repo: string, config: RepoWorktreeConfig, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.AGENT_BOARD_WORKTREE_DIR;
  if (fromEnv) return path.resolve(repo, fromEnv);
  if (config.dir) return path.resolve(repo, config.dir);
  return path.join(path.dirname(repo), `${path.basename(repo)}.worktrees`);
}

/** The worktree folder of `branch`. */
export function worktreePath(repo: string, branch: string, config: RepoWorktreeConfig, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(worktreesDir(repo, config, env), branchSlug(branch));
}
