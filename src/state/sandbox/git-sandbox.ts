/**
 * A worktree session's git inside the sandbox (docs/sandbox.md; the recipe tried in issue 32's
 * research §3.2): `git commit` on the session's own branch works, moving any other branch does
 * not, and the repository's shared objects cannot be deleted.
 *
 * - Every branch is a loose ref file (a branch only in packed-refs is written out as one), so each
 *   other branch's file and reflog can be bound read-only over itself: renaming or unlinking a
 *   mount point fails (EBUSY), writing it fails (EROFS). refs/heads stays writable for the session's own.
 * - New objects go to the session's own object folder (GIT_OBJECT_DIRECTORY), with the shared store
 *   as an alternate; the shared store lists the session's folder in objects/info/alternates, so the
 *   main checkout, `diff` and `merge` see the session's commits while it runs.
 * - Never lose work: the session's objects are copied into the shared store (content-addressed, so a
 *   copy is always safe) when the runner starts and when the program exits, and only then removed
 *   from its folder; the alternates line is dropped once the folder is empty.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { GitPieces } from '../../core/sandbox/bwrap-args.js';
import { gitSync } from '../worktree/git.js';

export type GitSandbox = { ok: true; pieces: GitPieces; env: Record<string, string> } | { ok: false; line: string };

/** Writes a file whole: a ref read while we write it is the old one or the new one, never empty. */
function writeAtomic(file: string, text: string): void {
  const tmp = `${file}.agent-board-${process.pid}`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

function alternatesFile(commonDir: string): string {
  return path.join(commonDir, 'objects', 'info', 'alternates');
}

function readAlternates(commonDir: string): string[] {
  try {
    return fs.readFileSync(alternatesFile(commonDir), 'utf8').split('\n').filter((l) => l.trim() !== '');
  } catch {
    return [];
  }
}

/** The common git folder and the worktree's admin folder, or a line saying why this worktree cannot be sandboxed. */
function gitDirs(worktree: string): { commonDir: string; adminDir: string } | { line: string } {
  const r = gitSync(['rev-parse', '--path-format=absolute', '--git-common-dir', '--git-dir'], { cwd: worktree });
  if (r.code !== 0) return { line: `cannot sandbox: ${worktree} is not a git worktree any more` };
  const [commonDir, adminDir] = r.stdout.trim().split('\n');
  if (!commonDir || !adminDir) return { line: `cannot sandbox: git did not say where ${worktree}'s repository is` };
  // The reftable backend keeps every ref in one set of files: no ref of its own can be pinned.
  const format = gitSync(['config', '--get', 'extensions.refStorage'], { cwd: worktree }).stdout.trim();
  if (format === 'reftable' || fs.existsSync(path.join(commonDir, 'reftable'))) {
    return { line: `cannot sandbox: ${commonDir} keeps its branches in reftable, where one branch cannot be made writable and the others not` };
  }
  return { commonDir, adminDir };
}

/** The branches as `refs/heads/...` with their commits. */
function branches(worktree: string): Array<{ ref: string; sha: string }> {
  const r = gitSync(['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads'], { cwd: worktree });
  return r.stdout.split('\n').filter(Boolean).map((l) => {
    const [ref = '', sha = ''] = l.split(' ');
    return { ref, sha };
  });
}

/**
 * Before the sandbox is made: refs written out, the session's object folder made and listed as an
 * alternate, leftovers of a previous run moved into the shared store.
 */
export function prepareGitSandbox(worktree: string, branch: string, objectDir: string): GitSandbox {
  const dirs = gitDirs(worktree);
  if ('line' in dirs) return { ok: false, line: dirs.line };
  const { commonDir, adminDir } = dirs;
  const own = `refs/heads/${branch}`;
  const pinned: string[] = [];
  for (const b of branches(worktree)) {
    const file = path.join(commonDir, b.ref);
    if (!fs.existsSync(file)) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      writeAtomic(file, `${b.sha}\n`);
    }
    if (b.ref === own) continue;
    pinned.push(file);
    const log = path.join(commonDir, 'logs', b.ref);
    if (fs.existsSync(log)) pinned.push(log);
  }
  const refDirs = [path.join(commonDir, 'refs', 'heads'), path.join(commonDir, 'logs', 'refs', 'heads')];
  for (const d of refDirs) fs.mkdirSync(d, { recursive: true });
  fs.mkdirSync(path.join(objectDir, 'pack'), { recursive: true });
  fs.mkdirSync(path.join(objectDir, 'info'), { recursive: true });
  const shared = path.join(commonDir, 'objects');
  moveObjectsToShared(objectDir, shared);
  const alternates = readAlternates(commonDir);
  if (!alternates.includes(objectDir)) writeAtomic(alternatesFile(commonDir), [...alternates, objectDir, ''].join('\n'));
  return {
    ok: true,
    pieces: {
      commonDir,
      adminDir,
      adminFixed: [path.join(adminDir, 'commondir'), path.join(adminDir, 'gitdir')],
      dotGit: path.join(worktree, '.git'),
      refDirs,
      pinned,
      objectDir,
    },
    env: { GIT_OBJECT_DIRECTORY: objectDir, GIT_ALTERNATE_OBJECT_DIRECTORIES: shared },
  };
}

/** Copies a file into place under a temporary name, then renames it: a reader sees all of it or none. */
function copyInto(from: string, to: string): void {
  if (fs.existsSync(to)) return;
  const tmp = `${to}.agent-board-${process.pid}`;
  fs.copyFileSync(from, tmp);
  fs.renameSync(tmp, to);
}

/**
 * The session's objects, copied into the shared store and then removed from its folder. Loose
 * objects first; in each pack the index goes last (git takes a pack as there only with its index).
 * Returns how many files were moved.
 */
export function moveObjectsToShared(objectDir: string, shared: string): number {
  let moved = 0;
  let names: string[];
  try {
    names = fs.readdirSync(objectDir);
  } catch {
    return 0;
  }
  for (const d of names.filter((n) => /^[0-9a-f]{2}$/.test(n))) {
    const from = path.join(objectDir, d);
    fs.mkdirSync(path.join(shared, d), { recursive: true });
    for (const f of fs.readdirSync(from)) {
      copyInto(path.join(from, f), path.join(shared, d, f));
      fs.unlinkSync(path.join(from, f));
      moved++;
    }
    fs.rmdirSync(from);
  }
  const packDir = path.join(objectDir, 'pack');
  const packs = fs.existsSync(packDir) ? fs.readdirSync(packDir).filter((f) => f.startsWith('pack-') && !f.endsWith('.idx')) : [];
  const order = [...packs.filter((f) => f.endsWith('.pack')), ...packs.filter((f) => !f.endsWith('.pack')), ...packs.filter((f) => f.endsWith('.pack')).map((f) => f.replace(/\.pack$/, '.idx'))];
  fs.mkdirSync(path.join(shared, 'pack'), { recursive: true });
  for (const f of order) {
    if (!fs.existsSync(path.join(packDir, f))) continue;
    copyInto(path.join(packDir, f), path.join(shared, 'pack', f));
    moved++;
  }
  for (const f of order) fs.rmSync(path.join(packDir, f), { force: true });
  return moved;
}

/**
 * After the program: its objects moved into the shared store and its alternates line dropped, so
 * the repository needs nothing of the session's folder any more (`rm` may delete it).
 */
export function releaseGitSandbox(pieces: GitPieces): number {
  const moved = moveObjectsToShared(pieces.objectDir, path.join(pieces.commonDir, 'objects'));
  const alternates = readAlternates(pieces.commonDir);
  if (alternates.includes(pieces.objectDir)) {
    const rest = alternates.filter((l) => l !== pieces.objectDir);
    if (rest.length) writeAtomic(alternatesFile(pieces.commonDir), [...rest, ''].join('\n'));
    else fs.rmSync(alternatesFile(pieces.commonDir), { force: true });
  }
  return moved;
}

/** Where a sandboxed worktree session's new objects go: in its own folder, writable inside its sandbox. */
export function sessionObjectDir(sessionDir: string): string {
  return path.join(sessionDir, 'git-objects');
}

/**
 * Before a sandboxed session's folder is deleted (`rm`): whatever objects are still in it (a runner
 * that was killed before it could move them) go to the repository, and its alternates line with them.
 */
export function releaseSessionObjects(repo: string, sessionDir: string): void {
  const objectDir = sessionObjectDir(sessionDir);
  if (!fs.existsSync(objectDir)) return;
  const r = gitSync(['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd: repo });
  if (r.code !== 0) return;
  const commonDir = r.stdout.trim();
  releaseGitSandbox({ commonDir, adminDir: '', adminFixed: [], dotGit: '', refDirs: [], pinned: [], objectDir });
}
