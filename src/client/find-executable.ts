import fs from 'node:fs';
import path from 'node:path';

/** Like the shell's lookup: a path is checked as is (relative to cwd), a bare name on PATH. */
export function findExecutable(command: string, cwd: string): string | null {
  const candidates = command.includes('/')
    ? [path.resolve(cwd, command)]
    : (process.env.PATH ?? '').split(':').filter(Boolean).map((dir) => path.join(dir, command));
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
