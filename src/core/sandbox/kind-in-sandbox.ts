/**
 * What a kind's program is given differently inside the sandbox (docs/sandbox.md).
 *
 * Codex sandboxes its own commands with bubblewrap, which cannot nest inside ours (no user
 * namespaces there: `--disable-userns`), so every command it ran would fail; ours is the boundary
 * and its own is turned off, unless the user chose a setting of its own.
 *
 * Claude Code writes ~/.claude.json through the home (a temporary file and a rename), which is
 * read-only inside: its config folder (CLAUDE_CONFIG_DIR) keeps that file instead.
 */

/** The words of Codex's own sandbox choice: one given by the user is kept as it is. */
const CODEX_SANDBOX_WORDS = ['--sandbox', '-s', '--dangerously-bypass-approvals-and-sandbox'];

/** Codex's arguments inside our sandbox: its own turned off unless the user set it. */
function codexArgsInSandbox(args: readonly string[]): string[] {
  const chosen = args.some((a) => CODEX_SANDBOX_WORDS.includes(a) || a.startsWith('--sandbox=') || /^-s\S/.test(a));
  return chosen ? [...args] : ['--sandbox', 'danger-full-access', ...args];
}

/** The program's arguments as the sandbox runs it. */
export function argsInSandbox(kind: string, args: readonly string[]): string[] {
  return kind === 'codex' ? codexArgsInSandbox(args) : [...args];
}

/** Claude's config folder when the user set none: where ~/.claude.json is seeded from and kept. */
export function claudeConfigDir(env: Readonly<Record<string, string | undefined>>, userHome: string): { dir: string; given: boolean } {
  const given = env.CLAUDE_CONFIG_DIR;
  return given ? { dir: given, given: true } : { dir: `${userHome}/.claude`, given: false };
}
