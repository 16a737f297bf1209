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
 * Whether any process of group `pgid` is there, zombies counting as gone (a group's members
 * outlive their parent, the leader, as zombies of init, which may reap them late or never, as
 * isZombie says); or, with `orLeader`, its leader, which may have moved to another group.
 */
export function isGroupAlive(pgid: number, orLeader = false): boolean {
  if (pgid <= 1) return false; // never ask about every process (-1) or our own group (0)
  let there = true;
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    there = (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return (there && !onlyZombies(pgid)) || (orLeader && isPidAlive(pgid));
}

/**
 * On Linux, whether the members of group `pgid` that /proc lists are all zombies (and it lists
 * one: another user's may be hidden from us); elsewhere we cannot tell and say no.
 */
function onlyZombies(pgid: number): boolean {
  if (process.platform !== 'linux') return false;
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return false; // no /proc: kill(-pgid, 0) said what it could
  }
  let zombies = 0;
  for (const name of entries) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue; // not a process
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // After the command name: state, ppid, pgrp (proc(5)).
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 3);
      if (Number(pgrp) !== pgid) continue;
      if (state !== 'Z') return false;
      zombies++;
    } catch {
      // gone meanwhile: not a member any more
    }
  }
  return zombies > 0;
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
