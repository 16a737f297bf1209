/**
 * A small disk for the tests of a full disk (issue 28): a 2 MiB tmpfs mounted on a temporary
 * folder, a home inside it, filled to the last byte by a filler file, freed again, remounted
 * read-only. Mounting needs root (the tests and CI run as root); where it cannot be done the test
 * fails and says why, it never passes without having run.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export class SmallDisk {
  readonly home: string;
  private readonly filler: string;
  private mounted = false;

  private constructor(readonly dir: string) {
    this.home = path.join(dir, 'home');
    this.filler = path.join(dir, 'filler');
  }

  /** Mounts a fresh tmpfs of `size` (2 MiB) with an empty private home in it; throws, saying why, when it cannot. */
  static mount(size = '2m'): SmallDisk {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-disk-'));
    const disk = new SmallDisk(dir);
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
    } catch (err) {
      fs.rmdirSync(dir);
      const why = (err as { stderr?: Buffer }).stderr?.toString().trim() || (err as Error).message;
      throw new Error(`SMALL DISK UNAVAILABLE: cannot mount a tmpfs on ${dir} (${why}); these tests need root (they run as root here and in CI) and must not be skipped`);
    }
    disk.mounted = true;
    fs.mkdirSync(disk.home, { mode: 0o700 });
    return disk;
  }

  /**
   * What a reader sees once a runner has been unable to write for a minute: its host.json (`rec`,
   * of this disk's home) with a heartbeat 60 s old. The copy is made now, beside the home, before
   * the disk fills; the function returned puts it in place once the disk is full, by a rename,
   * with the runner stopped meanwhile: the rename frees the old record's page, which the disk is
   * topped up with again before the runner can take it.
   */
  agedRecord(rec: { id: string; runnerPid?: number | null }): () => void {
    const old = new Date(Date.now() - 60_000).toISOString();
    const copy = path.join(this.dir, `aged-${rec.id}.json`);
    fs.writeFileSync(copy, JSON.stringify({ ...rec, heartbeatAt: old, updatedAt: old }, null, 2) + '\n', { mode: 0o600 });
    return () => {
      process.kill(rec.runnerPid!, 'SIGSTOP');
      try {
        fs.renameSync(copy, path.join(this.home, 'sessions', rec.id, 'host.json'));
        this.fill();
      } finally {
        process.kill(rec.runnerPid!, 'SIGCONT');
      }
    };
  }

  /** Fills the disk: a file grows until the disk says ENOSPC. */
  fill(): void {
    const fd = fs.openSync(this.filler, 'a');
    const chunk = Buffer.alloc(64 * 1024);
    try {
      for (;;) fs.writeSync(fd, chunk);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    } finally {
      fs.closeSync(fd);
    }
    // The last pages: writes of a few bytes, until not even one fits.
    const small = fs.openSync(this.filler, 'a');
    try {
      for (;;) fs.writeSync(small, Buffer.alloc(512));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    } finally {
      fs.closeSync(small);
    }
  }

  /** Gives back `bytes` of what fill() took (a page is 4096 bytes: a tmpfs counts pages). */
  release(bytes: number): void {
    fs.truncateSync(this.filler, Math.max(0, fs.statSync(this.filler).size - bytes));
  }

  /** Frees what fill() took. */
  free(): void {
    fs.rmSync(this.filler, { force: true });
  }

  /** Remounts it read-only (EROFS from then on); no file may be open for writing on it. */
  readOnly(): void {
    execFileSync('mount', ['-o', 'remount,ro', this.dir], { stdio: 'pipe' });
  }

  readWrite(): void {
    execFileSync('mount', ['-o', 'remount,rw', this.dir], { stdio: 'pipe' });
  }

  /** Every temporary file (`*.tmp`, a lock's private copy) left anywhere in the home. */
  leftovers(): string[] {
    const out: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.tmp$|\.lock\.\d+\.[0-9a-f]+$|\.lock$/.test(e.name)) out.push(path.relative(this.home, p));
      }
    };
    if (fs.existsSync(this.home)) walk(this.home);
    return out;
  }

  /** Unmounts (lazily, should a process still hold a file there) and removes the folder. */
  unmount(): void {
    if (!this.mounted) return;
    this.mounted = false;
    execFileSync('umount', ['-l', this.dir], { stdio: 'pipe' });
    fs.rmdirSync(this.dir);
  }
}
