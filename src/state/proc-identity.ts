/**
 * A process's identity on this machine as /proc tells it: the boot, and a process's start time
 * (so a pid that was reused is told apart). Both sides of direct output read it: the client to
 * say who it is, the runner to check it (src/runner/direct/tty-check.ts). Null where there is no /proc.
 */
import fs from 'node:fs';

/** Field 22 of /proc/<pid>/stat (its start time, in clock ticks since boot), or null. */
export function processStartTime(pid: number | 'self'): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces and parentheses itself.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return rest[22 - 3] ?? null;
  } catch {
    return null; // no such process (or not ours to read): the caller refuses, or does without
  }
}

/** This machine's boot id, or null where there is none (not Linux). */
export function bootId(): string | null {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return null; // no /proc: no direct output
  }
}
