import fs from 'node:fs';
import type { KindRegistry } from '../../core/agents/kind-rules.js';
import { kindOfCommand } from '../../core/agents/program-kind.js';
import { kindRegistry } from '../../state/kind-files.js';
import { findProgram } from '../../state/process/find-program.js';

/**
 * The agent kind a command line starts, for `new -- <program>` and the
 * board's new-session form: by the program's name, its real path through
 * symlinks, or what a wrapper such as npx runs (src/core/agents/program-kind.ts).
 * Null for anything else, which runs as a plain shell kind.
 */
export function recognizeKind(argv: readonly string[], cwd: string, registry: KindRegistry = kindRegistry()): string | null {
  if (argv.length === 0) return null;
  const exe = findProgram(argv[0]!, { cwd });
  let real: string[] = [];
  try {
    if (exe) real = [fs.realpathSync(exe)];
  } catch {
    // a dangling link: the name alone decides
  }
  const kind = kindOfCommand(registry.kinds.values(), argv, real);
  return kind && kind !== 'shell' && kind !== 'demo' ? kind : null;
}
