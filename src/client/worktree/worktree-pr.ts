import fs from 'node:fs';
import type { WorktreeInfo } from '../../core/worktree/worktree.js';
import { EXIT, UserError } from '../../state/errors.js';
import { git, gitComplaint } from '../../state/worktree/git.js';
import { findProgram } from '../../state/process/find-program.js';
import { runCommand } from '../../state/process/run.js';
import { uncommittedPaths } from './worktree-merge.js';

/**
 * `agent-board pr`: push a worktree session's branch and open a pull request
 * with the GitHub CLI (`gh`), titled from the session. Without gh, nothing is
 * pushed: one line says gh is needed.
 */

export interface PrRequest {
  /** The pull request's title: the session's name unless given. */
  title: string;
  /** Who made the work, for the body: the session's name and agent. */
  from: string;
}

export interface PrResult {
  remote: string;
  /** What gh printed: the pull request's address. */
  url: string;
}

/** gh, with its prompts off (we have no terminal to answer them on); rejects only when it cannot be started. */
async function runGh(gh: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await runCommand(gh, args, { cwd, env: { ...process.env, GH_PROMPT_DISABLED: '1' } });
  if (r.error) throw r.error;
  return { code: r.code ?? 1, stdout: r.stdout, stderr: r.stderr };
}

/** The remote the base branch tracks, else `origin`, else the only remote. */
async function pushRemote(w: WorktreeInfo): Promise<string> {
  const tracked = await git(['config', '--get', `branch.${w.base}.remote`], { cwd: w.repo });
  if (tracked.code === 0 && tracked.stdout.trim()) return tracked.stdout.trim();
  const remotes = (await git(['remote'], { cwd: w.repo })).stdout.split('\n').filter(Boolean);
  if (remotes.includes('origin')) return 'origin';
  if (remotes.length === 1) return remotes[0]!;
  throw new UserError(
    remotes.length === 0
      ? `${w.repo} has no remote to push ${w.branch} to; add one with: git -C ${w.repo} remote add origin URL`
      : `${w.repo} has several remotes and none is origin; push ${w.branch} yourself, then: gh pr create --head ${w.branch}`,
    EXIT.failure,
  );
}

export async function openPullRequest(w: WorktreeInfo, req: PrRequest): Promise<PrResult> {
  // Looked up ourselves, so a missing gh changes nothing.
  const gh = findProgram('gh');
  if (!gh) {
    throw new UserError(`pr needs the GitHub CLI (gh), which is not on PATH: install it (https://cli.github.com), or push ${w.branch} and open the pull request yourself`, EXIT.ghMissing);
  }
  if (fs.existsSync(w.path)) {
    const dirty = await uncommittedPaths(w.path);
    if (dirty.length > 0) {
      throw new UserError(
        `${w.path} has ${dirty.length} uncommitted path${dirty.length === 1 ? '' : 's'}, which a pull request would not carry; nothing was pushed. Commit them first: git -C ${w.path} add -A && git -C ${w.path} commit`,
        EXIT.workAtRisk,
      );
    }
  }
  const remote = await pushRemote(w);
  const push = await git(['push', '--set-upstream', remote, `${w.branch}:${w.branch}`], { cwd: w.repo });
  if (push.code !== 0) throw new UserError(`could not push ${w.branch} to ${remote}: ${gitComplaint(push)}`, EXIT.failure);
  const base = w.base.startsWith(`${remote}/`) ? w.base.slice(remote.length + 1) : w.base;
  const log = await git(['log', '--format=- %s', `${w.base}..${w.branch}`], { cwd: w.repo });
  const body = `${log.stdout.trim()}\n\nMade in agent-board session ${req.from}.`.trim();
  const r = await runGh(gh, ['pr', 'create', '--title', req.title, '--body', body, '--head', w.branch, '--base', base], w.repo);
  if (r.code !== 0) {
    const why = (r.stderr || r.stdout).split('\n').map((l) => l.trim()).filter(Boolean).pop() ?? `gh exited with code ${r.code}`;
    throw new UserError(`pushed ${w.branch} to ${remote}, but gh could not open the pull request: ${why}`, EXIT.failure);
  }
  const url = r.stdout.split('\n').map((l) => l.trim()).filter(Boolean).pop() ?? '';
  return { remote, url };
}
