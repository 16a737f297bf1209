import fs from 'node:fs';

/** The program in the foreground of a session's PTY, when it is not the session's own program. */
export interface ForegroundProgram {
  pid: number;
  /** Its command line, as /proc has it. */
  argv: string[];
  /** What /proc says its executable is (symlinks resolved), or null. */
  exe: string | null;
  /** The script a wrapper (node, npx) runs, resolved, when it is a file. */
  script: string | null;
}

/**
 * The foreground job of a shell session (Linux: /proc). `tpgid` is the PTY's
 * foreground process group (PtyHost.foregroundGroup); while that is the
 * shell's own group there is nothing in front of it. Reads two small files;
 * null wherever /proc cannot say.
 */
export function foregroundProgram(childPid: number, tpgid: number | null): ForegroundProgram | null {
  if (tpgid === null || tpgid === childPid) return null;
  try {
    const argv = fs.readFileSync(`/proc/${tpgid}/cmdline`, 'utf8').split('\0').filter((w) => w !== '');
    if (argv.length === 0) return null;
    return { pid: tpgid, argv, exe: realpath(`/proc/${tpgid}/exe`), script: argv[1]?.includes('/') ? realpath(argv[1]) : null };
  } catch {
    return null; // the group's leader is gone: nothing to say about it
  }
}

function realpath(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null; // not there (a deleted exe, no script): that path just does not name the program
  }
}
