/**
 * Descriptors a process was started with and never asked for: open without close-on-exec in
 * whoever ran `agent-board new` (a terminal multiplexer, an IDE, a CI harness), they pass through
 * `new` to the runner and on to the session's program, sandboxed or not: a program inside a
 * sandbox could write to a pipe or file of the world outside. Node and libuv open everything of
 * their own close-on-exec, so at the runner's start any other descriptor above stderr was
 * inherited, and is closed. Linux's /proc says which; elsewhere nothing is done.
 */
import fs from 'node:fs';

/** O_CLOEXEC as /proc/<pid>/fdinfo's octal `flags:` line carries it. */
const O_CLOEXEC = 0o2000000;

/** Closes this process's inherited descriptors above 2; returns their numbers (none off Linux). */
export function closeInheritedDescriptors(procFd = '/proc/self/fd'): number[] {
  let names: string[];
  try {
    names = fs.readdirSync(procFd);
  } catch {
    return []; // no /proc here: the portable fallback is to leave them
  }
  const closed: number[] = [];
  for (const name of names) {
    const fd = Number(name);
    if (!Number.isInteger(fd) || fd <= 2) continue;
    let flags: number;
    try {
      const m = /^flags:\s+([0-7]+)/m.exec(fs.readFileSync(`${procFd}/../fdinfo/${fd}`, 'utf8'));
      if (!m) continue;
      flags = parseInt(m[1]!, 8);
    } catch {
      continue; // gone already (the directory's own descriptor, listed while it was read)
    }
    if (flags & O_CLOEXEC) continue;
    try {
      fs.closeSync(fd);
      closed.push(fd);
    } catch {
      // Closed by someone else between the read and now: nothing left to do.
    }
  }
  return closed;
}
