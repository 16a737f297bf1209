/**
 * Which agent kind a command line runs: `claude`, `/usr/lib/node_modules/.bin/gemini`,
 * `node .../@google/gemini-cli/bundle/gemini.js`, `npx -y @openai/codex`,
 * `env FOO=1 pi`. Used by `new -- <program>` (the kind as if --agent had
 * been given) and by the runner for the foreground program of a shell
 * session. Pure: the caller resolves symlinks and reads /proc.
 */
import type { ResolvedKind } from './kind-rules.js';

/** Programs that run another program named by a later word: look past them. */
const WRAPPERS = new Set(['node', 'nodejs', 'bun', 'deno', 'tsx', 'npx', 'bunx', 'pnpx', 'env', 'nice', 'nohup', 'time', 'exec', 'command', 'stdbuf', 'caffeinate']);
/** Package runners whose subcommand comes before the program: `npm exec`, `pnpm dlx`, `yarn dlx`, `deno run`. */
const RUNNER_SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  npm: ['exec', 'x'],
  pnpm: ['dlx', 'exec'],
  yarn: ['dlx', 'exec'],
  deno: ['run'],
  bun: ['run', 'x'],
};
/** Options of the wrappers that take the next word as their value. */
const OPTIONS_WITH_VALUE = new Set(['-p', '--package', '-r', '--require', '--import', '--loader', '-u', '-i', '-o', '-e', '-s', '-n', '-k']);
/** What a script or binary file name may end with. */
const EXTENSION = /\.(?:js|mjs|cjs|ts|exe|cmd|sh)$/;

function baseName(word: string): string {
  const b = word.slice(word.lastIndexOf('/') + 1);
  return b.replace(EXTENSION, '');
}

/** `@scope/name@1.2.3` or `name@latest`: the package name. */
function packageSpec(word: string): string {
  const at = word.lastIndexOf('@');
  return at > 0 ? word.slice(0, at) : word;
}

/** The kind whose program or package this one word names, or null. */
export function kindOfWord(kinds: Iterable<ResolvedKind>, word: string): string | null {
  if (word === '') return null;
  const base = baseName(word);
  const spec = packageSpec(word);
  for (const k of kinds) {
    if (k.programs.includes(base) || k.programs.includes(word)) return k.name;
    for (const pkg of k.packages) {
      if (spec === pkg || word.includes(`/node_modules/${pkg}/`) || word.includes(`/${pkg}/`)) return k.name;
    }
  }
  return null;
}

/**
 * The kind a command line runs, or null. `argv` is the command line as
 * typed (or read from /proc); `realPaths` are what its words resolve to
 * (the executable through its symlinks, the script a wrapper runs), tried
 * after the words themselves.
 */
export function kindOfCommand(kinds: Iterable<ResolvedKind>, argv: readonly string[], realPaths: readonly string[] = []): string | null {
  const list = [...kinds].filter((k) => k.programs.length > 0 || k.packages.length > 0);
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    const name = baseName(word);
    const found = kindOfWord(list, word);
    if (found) return found;
    const subs = RUNNER_SUBCOMMANDS[name];
    if (subs && subs.includes(argv[i + 1] ?? '')) {
      i++;
    } else if (!WRAPPERS.has(name)) {
      break;
    }
    // Past the wrapper's own options (and env's NAME=value words) to the program it runs.
    while (i + 1 < argv.length) {
      const next = argv[i + 1]!;
      if (next === '--') {
        i++;
        break;
      }
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(next) || (next.startsWith('-') && next.length > 1)) {
        i++;
        if (OPTIONS_WITH_VALUE.has(next) && !(argv[i + 1] ?? '').startsWith('-')) {
          // `npx -p @openai/codex codex`: the package is the value.
          const value = argv[i + 1] ?? '';
          const byValue = kindOfWord(list, value);
          if (byValue) return byValue;
          i++;
        }
        continue;
      }
      break;
    }
  }
  for (const p of realPaths) {
    const found = kindOfWord(list, p);
    if (found) return found;
  }
  return null;
}
