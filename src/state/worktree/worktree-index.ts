/**
 * A count's own copy of a worktree's index (`GIT_INDEX_FILE`), for two
 * reasons. `git diff` takes the index's lock to write back the file times it
 * refreshed, whatever GIT_OPTIONAL_LOCKS says, and an agent's `git add` at
 * that moment would fail on `index.lock`: on the copy, the lock and the write
 * are ours alone. And git lets a count write the copy, so that the times
 * stay refreshed: an index written in the second its files were (a fresh
 * `git worktree add`) is "racy", and until someone writes it again every
 * `status` and `diff` reads every file's content, not just its times.
 *
 * The copy is taken again whenever the real index changed (its size, time or
 * inode); it is the same index, so git says the same of it. A repository
 * with a split index (`sharedindex.*` files) keeps its real index: writing a
 * copy would add shared files to it.
 *
 * Where: `worktree-index.<pid>` in the session's folder (gone with `rm`; one
 * file a process, so two boards never replace each other's, and those of
 * processes that are gone are swept when a copy is first made), else a
 * private temporary folder, removed on dispose.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Disposable } from '../../core/lifetime.js';
import { git } from './git.js';
import { isPidAlive } from '../host-store.js';

const PREFIX = 'worktree-index.';

const stampOf = (file: string): string | null => {
  try {
    const st = fs.statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    return null; // no index (yet): git reads none either
  }
};

export class PrivateIndex implements Disposable {
  /** The real index's path, once asked; null: git could not say, or it is not to be copied. */
  private real: string | null | undefined;
  /** The copy's path once made; and the temporary folder it is in, when there is no session folder. */
  private copy: string | null = null;
  private tmpDir: string | null = null;
  /** The real index's stamp when the copy was taken. */
  private copied: string | null = null;
  private disposed = false;

  /** `place`: the session's folder, where the copy is kept; none: a temporary folder. */
  constructor(
    private readonly worktree: string,
    private readonly place?: string,
  ) {}

  /** Whether the real index changed since the copy was taken: a count of some paths will not do then. */
  get stale(): boolean {
    return this.real !== undefined && this.real !== null && stampOf(this.real) !== this.copied;
  }

  /** The environment of a count's git runs: the copy, taken afresh if the real index changed; {} for the real one. */
  async env(): Promise<NodeJS.ProcessEnv> {
    if (this.real === undefined) this.real = await this.locate();
    if (this.real === null || this.disposed) return {};
    const stamp = stampOf(this.real);
    if (stamp === null) return {};
    try {
      const copy = (this.copy ??= this.makePlace());
      if (stamp !== this.copied) {
        fs.copyFileSync(this.real, `${copy}.new`);
        // The copy keeps the real index's time: git calls an entry "racy" (and reads its content,
        // not only its stat) when the file changed in the second the index was written. A copy
        // stamped now made a file rewritten with as many bytes in that second look unchanged.
        const real = fs.statSync(this.real);
        fs.utimesSync(`${copy}.new`, real.atime, real.mtime);
        fs.renameSync(`${copy}.new`, copy);
        // Changed while it was copied: take it again next time.
        this.copied = stampOf(this.real) === stamp ? stamp : null;
      }
      // The copy is ours: git may refresh it (status's optional lock on it).
      return { GIT_INDEX_FILE: copy, GIT_OPTIONAL_LOCKS: '1' };
    } catch {
      return {}; // no room for a copy (a full disk): the real index, read as before
    }
  }

  dispose(): void {
    this.disposed = true;
    if (this.copy) for (const f of [this.copy, `${this.copy}.new`, `${this.copy}.lock`]) fs.rmSync(f, { force: true });
    if (this.tmpDir) fs.rmSync(this.tmpDir, { recursive: true, force: true });
    this.copy = this.tmpDir = null;
  }

  /** Where this process's copy goes; the copies of processes that are gone are removed on the way. */
  private makePlace(): string {
    if (!this.place) {
      this.tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-board-index-'));
      return path.join(this.tmpDir, 'index');
    }
    for (const name of fs.readdirSync(this.place)) {
      const pid = Number(name.slice(PREFIX.length).split('.')[0]);
      if (name.startsWith(PREFIX) && pid !== process.pid && !isPidAlive(pid)) fs.rmSync(path.join(this.place, name), { force: true });
    }
    return path.join(this.place, `${PREFIX}${process.pid}`);
  }

  private async locate(): Promise<string | null> {
    const r = await git(['rev-parse', '--path-format=absolute', '--git-path', 'index'], { cwd: this.worktree }).catch(() => null); // no git: the count says so
    if (!r || r.code !== 0) return null;
    const file = r.stdout.trim();
    try {
      if (fs.readdirSync(path.dirname(file)).some((n) => n.startsWith('sharedindex.'))) return null;
    } catch {
      return null; // its folder unreadable: git will say what is wrong when it counts
    }
    return file;
  }
}
