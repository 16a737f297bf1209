import fs from 'node:fs';
import os from 'node:os';
import * as pty from 'node-pty';
import { TERMINATE_GRACE_MS } from '../core/lifecycle.js';

/** How a child ended, as data. */
export interface ChildExit {
  code: number | null;
  signal: string | null;
}


export interface PtyHostOptions {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
}

export interface Disposable { dispose(): void }

const signalNames = new Map(Object.entries(os.constants.signals).map(([name, num]) => [num, name]));

export function signalName(num: number | undefined): string | null {
  return num ? (signalNames.get(num) ?? String(num)) : null;
}

/**
 * One child in a PTY, with the exit-time output loss fixed (FIELD-NOTES):
 * libuv on Node 20 takes POLLHUP plus a short read as end of file while the
 * PTY still holds data. Holding our own fd on the slave side keeps the master
 * from ever seeing the hang-up; node-pty then reads until its exit timer, and
 * we close the slave when the exit is reported.
 */
export class PtyHost {
  private readonly pty: pty.IPty;
  private slaveFd: number | null = null;
  private killTimer: NodeJS.Timeout | null = null;
  private exited: ChildExit | null = null;
  private readonly exitListeners: Array<(e: ChildExit) => void> = [];

  constructor(opts: PtyHostOptions) {
    this.pty = pty.spawn(opts.command, opts.args, {
      name: 'xterm-256color',
      cols: opts.cols,
      rows: opts.rows,
      cwd: opts.cwd,
      env: opts.env,
      encoding: 'utf8',
    });
    const ptsName = (this.pty as unknown as { ptsName?: string }).ptsName;
    if (ptsName) {
      try {
        this.slaveFd = fs.openSync(ptsName, fs.constants.O_RDWR | fs.constants.O_NOCTTY);
      } catch {
        this.slaveFd = null; // the child may already be gone; nothing to hold open
      }
    }
    this.pty.onExit(({ exitCode, signal }) => {
      this.closeSlave();
      if (this.killTimer) clearTimeout(this.killTimer);
      this.killTimer = null;
      const sig = signalName(signal);
      this.exited = { code: sig ? null : exitCode, signal: sig };
      for (const fn of this.exitListeners) fn(this.exited);
    });
  }

  get pid(): number {
    return this.pty.pid;
  }

  get hasExited(): boolean {
    return this.exited !== null;
  }

  onData(fn: (data: string) => void): Disposable {
    return this.pty.onData(fn);
  }

  onExit(fn: (e: ChildExit) => void): Disposable {
    this.exitListeners.push(fn);
    return { dispose: () => this.exitListeners.splice(this.exitListeners.indexOf(fn) >>> 0, 1) };
  }

  write(data: string): void {
    if (!this.exited) this.pty.write(data);
  }

  resize(cols: number, rows: number): void {
    if (this.exited) return;
    try {
      this.pty.resize(cols, rows);
    } catch {
      // The PTY closed between the exit check and here; the exit event follows.
    }
  }

  pause(): void {
    this.pty.pause();
  }

  resume(): void {
    this.pty.resume();
  }

  /** Sends a signal to the child's whole process group (node-pty makes the child a group leader). */
  signal(sig: NodeJS.Signals): boolean {
    if (this.exited) return false;
    try {
      process.kill(-this.pty.pid, sig);
      return true;
    } catch {
      try {
        process.kill(this.pty.pid, sig);
        return true;
      } catch {
        return false;
      }
    }
  }

  /**
   * SIGTERM to the group now, SIGKILL after the grace period; idempotent.
   * SIGHUP goes with SIGTERM: interactive shells ignore SIGTERM, and a hang-up
   * is what every terminal program expects when its terminal goes away.
   */
  terminate(graceMs = TERMINATE_GRACE_MS): void {
    if (this.exited || this.killTimer) return;
    this.signal('SIGTERM');
    this.signal('SIGHUP');
    this.killTimer = setTimeout(() => this.signal('SIGKILL'), graceMs);
  }

  /** The terminal's foreground process group, from /proc (field 8 of stat). */
  foregroundGroup(): number | null {
    try {
      const stat = fs.readFileSync(`/proc/${this.pty.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const tpgid = Number(fields[5]);
      return tpgid > 0 ? tpgid : null;
    } catch {
      return null;
    }
  }

  private closeSlave(): void {
    if (this.slaveFd === null) return;
    try {
      fs.closeSync(this.slaveFd);
    } catch {
      // already closed
    }
    this.slaveFd = null;
  }
}
