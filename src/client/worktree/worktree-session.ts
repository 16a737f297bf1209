/** A new session in its own git worktree: the branch and worktree made, then the session started in it. */
import type { Time } from '../../core/clock.js';
import fs from 'node:fs';
import path from 'node:path';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { branchForSession } from '../../core/worktree/worktree.js';
import { listSessions } from '../../state/host-store.js';
import { kindNamed } from '../../state/kind-files.js';
import { createSession, type NewSessionOptions } from '../session/session-create.js';
import { makeWorktree, type MadeWorktree } from './worktree-create.js';

export interface WorktreeSessionOptions {
  /** --worktree BRANCH; absent: derived from the session's name (`agent/<name>`). */
  branch?: string;
  base?: string;
  reuse: boolean;
  setup?: string;
  /** Told each file `.worktreeinclude` left out, one line each. */
  onSkipped?: (line: string) => void;
}

/** The name createSession would pick (`claude-1`), picked here: the branch is derived from it. */
function defaultName(home: string, opts: NewSessionOptions): string {
  const kind = kindNamed(opts.agent ?? 'shell');
  const base = (opts.nameBase ?? (kind.command !== null ? kind.name : path.basename(opts.command))).replace(/[^A-Za-z0-9._-]/g, '') || 'session';
  const taken = new Set(listSessions(home).map((s) => s.name));
  for (let i = 1; ; i++) if (!taken.has(`${base}-${i}`)) return `${base}-${i}`;
}

/**
 * `new --worktree`: make the worktree, then the session in it (its cwd);
 * host.json records the worktree and the setup still to run. A session that
 * fails to start takes its worktree (and a branch made for it) away again.
 */
export async function createWorktreeSession(home: string, opts: NewSessionOptions, w: WorktreeSessionOptions, time: Time): Promise<{ record: HostRecord; made: MadeWorktree }> {
  const name = opts.name ?? defaultName(home, opts);
  const made = await makeWorktree({ cwd: opts.cwd, branch: w.branch ?? branchForSession(name), base: w.base, reuse: w.reuse, setup: w.setup });
  for (const line of made.include.skipped) w.onSkipped?.(line);
  const extra: Partial<HostRecord> = { ...opts.extra, worktree: made.info, ...(made.setup ? { worktreeSetup: { command: made.setup } } : {}) };
  try {
    const record = await createSession(home, { ...opts, name, cwd: sameFolderIn(made, opts.cwd), extra }, time);
    return { record, made };
  } catch (err) {
    await made.undo();
    throw err;
  }
}

/** Started from a subfolder of the repository: the same subfolder of the worktree, when it has it. */
function sameFolderIn(made: MadeWorktree, cwd: string): string {
  const rel = path.relative(fs.realpathSync(made.info.repo), fs.realpathSync(cwd));
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return made.info.path;
  const there = path.join(made.info.path, rel);
  return fs.existsSync(there) ? there : made.info.path;
}
