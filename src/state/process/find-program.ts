/**
 * Where a program is, as the shell would find it: a name with a slash is a path (relative to
 * `cwd`), a bare name is looked for in each folder of PATH in turn. The first executable file
 * wins. An empty PATH entry is skipped (POSIX reads it as the current folder, which no one
 * means in a PATH an agent runs with).
 */
import fs from 'node:fs';
import path from 'node:path';

export interface FindProgram {
  /** Where a relative path is from (the process's own folder unless given). */
  cwd?: string;
  /** Whose PATH (the process's own environment unless given). */
  env?: NodeJS.ProcessEnv;
}

/** The program's file, or null when there is none to run. */
export function findProgram(command: string, o: FindProgram = {}): string | null {
  const candidates = command.includes('/')
    ? [path.resolve(o.cwd ?? process.cwd(), command)]
    : ((o.env ?? process.env).PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, command));
  for (const file of candidates) {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here: the next candidate
    }
  }
  return null;
}
