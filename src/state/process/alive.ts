/**
 * Whether a process, or a process group, is still there. Asked with signal 0, which checks
 * without sending anything; a zombie counts as gone, since it runs nothing any more.
 */
import fs from 'node:fs';

/** Whether a process is there, a zombie counting as gone. */
export function isPidAlive(pid: number | null): boolean {
  if (!pid || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: there, but another user's; anything else (ESRCH): gone.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

/**
 * Whether any process of group `pgid` is there (its zombies included: the kernel keeps a
 * group while one of them waits to be reaped, and the reaper is usually prompt), or, with
 * `orLeader`, its leader, which may have moved to another group.
 */
export function isGroupAlive(pgid: number, orLeader = false): boolean {
  if (pgid <= 1) return false; // never ask about every process (-1) or our own group (0)
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EPERM') return true;
  }
  return orLeader && isPidAlive(pgid);
}

/**
 * A killed runner stays a zombie until its parent (init, since `new` is long
 * gone) reaps it, and kill(pid, 0) still answers for a zombie. Some inits
 * reap late (seconds) or never (a container whose pid 1 does not wait), so
 * on Linux we look at its state; elsewhere we cannot tell and say no.
 */
export function isZombie(pid: number | null): boolean {
  if (!pid || process.platform !== 'linux') return false;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const end = stat.lastIndexOf(')'); // the command name may hold spaces and parentheses
    return stat.charAt(end + 2) === 'Z';
  } catch {
    return false; // gone, or no /proc: kill(pid, 0) already said what it could
  }
}
