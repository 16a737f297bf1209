/**
 * An agent's own conversation as data: how its id is given up front or
 * learned, the words that start, resume or fork it, and where the agent saves
 * it (so a resume of a conversation that was never saved starts it afresh
 * instead). Pure: src/client/session/conversation-launch.ts reads the files and picks
 * the words. docs/agents.md, "Resume and fork", has the table per kind.
 */

/**
 * Words may hold {id} (the conversation's id), {newId} (a fork's id, when we
 * choose it), {home} (the kind's state folder, `home`), {file} (the newest
 * saved file of the conversation, found by `saved`) and {id8} (the id's first
 * 8 characters).
 */
export interface ConversationRules {
  /**
   * How its id becomes known. `given`: `new` picks a UUID and starts it with
   * `start`; `learned`: its hooks (or the line it prints on exit) tell the
   * runner; `none`: it has no conversation (a shell: a restart, revive or fork
   * starts it fresh in its folder).
   */
  id: 'given' | 'learned' | 'none';
  /** A new conversation under {id} (`given` only). */
  start: readonly string[];
  /** The conversation {id} again. */
  resume: readonly string[];
  /** The conversation {id} continued under a new one; null: it cannot fork. */
  fork: readonly string[] | null;
  /** The fork's id: given by us ({newId} in `fork`), or learned like any other. */
  forkId: 'given' | 'learned';
  /** These words go before the user's (Codex's `resume` and `fork` are subcommands). */
  first: boolean;
  /**
   * The user's own words that pick a conversation (`--continue`, `--resume`): with one of them
   * we give no id of ours. With `first`, only the user's first word is looked at (a subcommand).
   */
  picks: readonly string[];
  /** A line it prints on exit that names its id (one capture group), read off its last screen. */
  printed: string | null;
  /**
   * Its state folder: `dir` under $HOME, unless the variable `env.name` is set:
   * then that is the folder itself (`is: 'dir'`) or the $HOME it is under (`'home'`).
   */
  home: { dir: string; env?: { name: string; is: 'dir' | 'home' } } | null;
  /** Where a saved conversation is, under `home` (`*` matches within one part of the path); null: not known. */
  saved: string | null;
}

/** A shell, the demo, a kind of the user's: nothing to resume. */
export const NO_CONVERSATION: ConversationRules = Object.freeze({
  id: 'none',
  start: [],
  resume: [],
  fork: null,
  forkId: 'learned',
  first: false,
  picks: [],
  printed: null,
  home: null,
  saved: null,
});

export type ConversationMode = 'start' | 'resume' | 'fork';

export interface ConversationVars {
  id: string;
  newId?: string;
  home?: string;
  file?: string;
}

/** The words of one mode with the placeholders filled in; null when the kind has none, or one it needs is missing. */
export function conversationWords(rules: ConversationRules, mode: ConversationMode, v: ConversationVars): string[] | null {
  if (rules.id === 'none') return null;
  const words = mode === 'start' ? (rules.id === 'given' ? rules.start : null) : mode === 'resume' ? rules.resume : rules.fork;
  if (!words?.length) return null;
  const vars: Record<string, string | undefined> = { id: v.id, id8: v.id.slice(0, 8), newId: v.newId, home: v.home, file: v.file };
  const out: string[] = [];
  for (const w of words) {
    let missing = false;
    out.push(w.replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? ((missing = true), '')));
    if (missing) return null;
  }
  return out;
}

/**
 * The user's own words already pick a conversation (`-- --resume X`, `codex
 * resume ...`): then we give none of ours and learn its id instead.
 */
export function wordsPickConversation(rules: ConversationRules, words: readonly string[]): boolean {
  const picks = new Set(rules.picks);
  if (rules.first) return words.length > 0 && picks.has(words[0]!);
  return words.some((w) => w.startsWith('-') && picks.has(w.split('=')[0]!));
}

/** The state folder of a kind, given $HOME and the environment's value of `home.env`. */
export function conversationHome(rules: ConversationRules, userHome: string, envValue: string | undefined): string | null {
  if (!rules.home) return null;
  if (envValue && rules.home.env) return rules.home.env.is === 'dir' ? envValue : `${envValue}/${rules.home.dir}`;
  return `${userHome}/${rules.home.dir}`;
}

/** `saved` for one id: the path under the state folder, as parts, each a pattern for one name. */
export function savedPattern(rules: ConversationRules, id: string): RegExp[] | null {
  if (!rules.saved) return null;
  const filled = rules.saved.replace('{id8}', id.slice(0, 8)).replace('{id}', id);
  const escape = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  return filled.split('/').map((part) => new RegExp(`^${part.split('*').map(escape).join('[^/]*')}$`));
}
