/**
 * The board's keys as data: a command for each thing a key can do, a table of
 * bindings per mode, and one matcher. Nothing else in the board looks at keys,
 * and the help overlay is drawn from the same table.
 */

export enum Command {
  Up = 'up',
  Down = 'down',
  PageUp = 'page-up',
  PageDown = 'page-down',
  First = 'first',
  Last = 'last',
  Attach = 'attach',
  New = 'new',
  Kill = 'kill',
  Remove = 'remove',
  Rename = 'rename',
  /** Open the chat of the selected session's room. */
  Chat = 'chat',
  Filter = 'filter',
  Help = 'help',
  Quit = 'quit',
  /** Esc on the list: clear the filter and the message. */
  Clear = 'clear',
  Submit = 'submit',
  Cancel = 'cancel',
  NextField = 'next-field',
  PrevField = 'prev-field',
  DeleteBack = 'delete-back',
  ClearField = 'clear-field',
  Confirm = 'confirm',
  /** A digit for the dialog of a waiting session: typed into it. */
  Answer = 'answer',
  /** Type-through: keys go to the selected session as typed, until the detach key. */
  TypeInto = 'type-into',
  /** A prompt line, sent exactly once to the selected session or to every marked one. */
  Prompt = 'prompt',
  /** Mark or unmark the selected row (for the prompt line). */
  Mark = 'mark',
  /** Why the selected session shows its state. */
  Explain = 'explain',
  /** Review the selected session's diff against its base (a worktree session). */
  Diff = 'diff',
  NextHunk = 'next-hunk',
  PrevHunk = 'prev-hunk',
  NextFile = 'next-file',
  PrevFile = 'prev-file',
  /** A comment on the diff's cursor line. */
  Comment = 'comment',
  /** Every unsent comment to the session, as one prompt. */
  SendComments = 'send-comments',
  /** Turn resume-after-limit on or off for the selected session (docs/usage.md). */
  ResumeAfterLimit = 'resume-after-limit',
  /** Revive every lost session (after a reboot: docs/cli.md, "revive"). */
  ReviveLost = 'revive-lost',
  /** Hide the demo's walkthrough line, for good (./walkthrough.ts). */
  HideWalkthrough = 'hide-walkthrough',
  /** Show or hide the tokens and cost column (docs/usage.md). */
  ToggleUsage = 'toggle-usage',
  /** The prompt again, over their budgets, to the sessions whose spent budget held it. */
  SendAnyway = 'send-anyway',
  /** On a choice of the new-session form (the kind, the worktree): the next one, or the one before. */
  NextChoice = 'next-choice',
  PrevChoice = 'prev-choice',
}

/**
 * What the keyboard is talking to. `type` has no bindings: every key goes to
 * the session as typed, but the detach key (src/ui/hooks/useTypeThrough.ts).
 */
export type KeyMode = 'list' | 'filter' | 'help' | 'form' | 'confirm' | 'chat' | 'prompt' | 'results' | 'explain' | 'diff' | 'diff-comment' | 'type';

/** What must hold for a hint to be in the footer: the selected session waits for an answer (or is limited), rows are marked, the form's focus is on a choice, or a spent budget held a prompt. */
export type HintWhen = 'waiting' | 'marked' | 'choice' | 'held' | 'limited';

type NamedKey =
  | 'upArrow' | 'downArrow' | 'leftArrow' | 'rightArrow' | 'pageUp' | 'pageDown'
  | 'home' | 'end' | 'return' | 'escape' | 'tab' | 'backspace' | 'delete';

/** A key press the way Ink reports it (Ink's `Key` fits this shape). */
export type KeyPress = Partial<Record<NamedKey | 'ctrl' | 'shift' | 'meta', boolean>>;

/** One key: a named key or a typed character, with modifiers that must match when given. */
export interface KeySpec {
  key?: NamedKey;
  input?: string;
  ctrl?: boolean;
  shift?: boolean;
}

export interface Binding {
  command: Command;
  keys: readonly KeySpec[];
  /** How the help overlay and footer show the keys, and what they do. */
  label: string;
  help: string;
  /** Shown in the footer, when given... */
  hint?: string;
  /** ...and only while this holds, when given. */
  when?: HintWhen;
}

const k = (key: NamedKey, mods: Omit<KeySpec, 'key' | 'input'> = {}): KeySpec => ({ key, ...mods });
const ch = (input: string, ctrl = false): KeySpec => ({ input, ctrl });

const DIGITS: readonly KeySpec[] = Array.from('123456789', (d) => ch(d));

/** A line of text going somewhere: the same edits everywhere. */
const LINE_EDITS: readonly Binding[] = [
  { command: Command.DeleteBack, keys: [k('backspace'), k('delete')], label: 'Backspace', help: 'delete a character' },
  { command: Command.ClearField, keys: [ch('u', true)], label: 'Ctrl-U', help: 'clear the line' },
];

const FORM_KEYS: readonly Binding[] = [
  { command: Command.Submit, keys: [k('return')], label: 'Enter', help: 'save', hint: 'Enter save' },
  { command: Command.Cancel, keys: [k('escape'), ch('c', true)], label: 'Esc', help: 'cancel', hint: 'Esc cancel' },
  { command: Command.PrevField, keys: [k('tab', { shift: true }), k('upArrow')], label: 'S-Tab ↑', help: 'previous field' },
  { command: Command.NextField, keys: [k('tab'), k('downArrow')], label: 'Tab ↓', help: 'next field', hint: 'Tab next field' },
  { command: Command.PrevChoice, keys: [k('leftArrow')], label: '←', help: 'the choice before (kind, worktree)' },
  { command: Command.NextChoice, keys: [k('rightArrow')], label: '→', help: 'the next choice (kind, worktree)', hint: '←→ choose', when: 'choice' },
  { command: Command.DeleteBack, keys: [k('backspace'), k('delete')], label: 'Backspace', help: 'delete a character' },
  { command: Command.ClearField, keys: [ch('u', true)], label: 'Ctrl-U', help: 'clear the field' },
];

export const BINDINGS: Readonly<Record<KeyMode, readonly Binding[]>> = {
  list: [
    { command: Command.Up, keys: [k('upArrow'), ch('k')], label: '↑ k', help: 'select the session above' },
    { command: Command.Down, keys: [k('downArrow'), ch('j')], label: '↓ j', help: 'select the session below', hint: '↑↓ select' },
    { command: Command.PageUp, keys: [k('pageUp')], label: 'PgUp', help: 'a page up' },
    { command: Command.PageDown, keys: [k('pageDown')], label: 'PgDn', help: 'a page down' },
    { command: Command.First, keys: [k('home'), ch('g')], label: 'Home g', help: 'first session' },
    { command: Command.Last, keys: [k('end'), ch('G')], label: 'End G', help: 'last session' },
    { command: Command.Attach, keys: [k('return'), k('rightArrow')], label: 'Enter →', help: 'attach, full screen', hint: 'Enter attach' },
    { command: Command.New, keys: [ch('n')], label: 'n', help: 'new session', hint: 'n new' },
    { command: Command.Kill, keys: [ch('x')], label: 'x', help: 'kill the session (asks first)', hint: 'x kill' },
    { command: Command.Remove, keys: [ch('d')], label: 'd', help: 'remove an exited session', hint: 'd remove' },
    { command: Command.Rename, keys: [ch('r')], label: 'r', help: 'rename', hint: 'r rename' },
    { command: Command.Chat, keys: [ch('c')], label: 'c', help: "chat in the session's room" },
    { command: Command.Answer, keys: DIGITS, label: '1-9', help: 'answer a waiting dialog', hint: '1-9 answer', when: 'waiting' },
    { command: Command.TypeInto, keys: [ch('i')], label: 'i', help: 'type in ({detach} back)' },
    { command: Command.Mark, keys: [ch(' ')], label: 'Space', help: 'mark / unmark (*)' },
    { command: Command.Prompt, keys: [ch('p')], label: 'p', help: 'prompt it or the marked', hint: 'p prompt marked', when: 'marked' },
    { command: Command.Explain, keys: [ch('e')], label: 'e', help: 'why it has its state' },
    { command: Command.Diff, keys: [ch('D')], label: 'D', help: 'review its worktree diff' },
    { command: Command.ToggleUsage, keys: [ch('u')], label: 'u', help: 'show / hide tokens and cost' },
    // Told in the footer while the selected session is limited, and by explain (no room in the help at 80x24).
    { command: Command.ResumeAfterLimit, keys: [ch('L')], label: 'L', help: 'carry on after a usage limit: on / off', hint: 'L carry on after the limit', when: 'limited' },
    { command: Command.ReviveLost, keys: [ch('R')], label: 'R', help: 'revive every lost session' }, // its hint is the lost banner's (LostBanner.tsx)
    { command: Command.HideWalkthrough, keys: [ch('h')], label: 'h', help: "hide the demo's walkthrough line" }, // its hint is the line itself (DemoWalkthrough.tsx)
    { command: Command.Filter, keys: [ch('/')], label: '/', help: 'filter by name, agent, status', hint: '/ filter' },
    { command: Command.Clear, keys: [k('escape')], label: 'Esc', help: 'clear the filter' },
    { command: Command.Help, keys: [ch('?')], label: '?', help: 'this help', hint: '? help' },
    { command: Command.Quit, keys: [ch('q'), ch('c', true)], label: 'q', help: 'quit (sessions keep running)', hint: 'q quit' },
  ],
  filter: [
    { command: Command.Submit, keys: [k('return'), k('downArrow')], label: 'Enter', help: 'keep the filter' },
    { command: Command.Cancel, keys: [k('escape'), ch('c', true)], label: 'Esc', help: 'clear the filter' },
    { command: Command.DeleteBack, keys: [k('backspace'), k('delete')], label: 'Backspace', help: 'delete a character' },
    { command: Command.ClearField, keys: [ch('u', true)], label: 'Ctrl-U', help: 'clear' },
  ],
  help: [
    { command: Command.Cancel, keys: [k('escape'), ch('?'), ch('q'), k('return'), ch('c', true)], label: 'Esc ? q', help: 'close the help', hint: 'Esc close' },
  ],
  form: FORM_KEYS,
  // The chat pane: typing goes to its input line; the history scrolls with the page keys.
  chat: [
    { command: Command.Submit, keys: [k('return')], label: 'Enter', help: 'post; /continue resumes', hint: 'Enter send' },
    { command: Command.Cancel, keys: [k('escape'), ch('c', true)], label: 'Esc', help: 'close the chat', hint: 'Esc close' },
    { command: Command.PageUp, keys: [k('pageUp')], label: 'PgUp', help: 'older messages', hint: 'PgUp PgDn scroll' },
    { command: Command.PageDown, keys: [k('pageDown')], label: 'PgDn', help: 'newer messages' },
    { command: Command.Last, keys: [k('end')], label: 'End', help: 'back to the newest' },
    { command: Command.DeleteBack, keys: [k('backspace'), k('delete')], label: 'Backspace', help: 'delete a character' },
    { command: Command.ClearField, keys: [ch('u', true)], label: 'Ctrl-U', help: 'clear the line' },
  ],
  confirm: [
    { command: Command.Confirm, keys: [ch('y'), ch('Y')], label: 'y', help: 'yes', hint: 'y yes' },
    { command: Command.Cancel, keys: [ch('n'), ch('N'), k('escape'), ch('c', true)], label: 'n Esc', help: 'no', hint: 'n no' },
  ],
  prompt: [
    { command: Command.Submit, keys: [k('return')], label: 'Enter', help: 'send it, typed exactly once', hint: 'Enter send' },
    { command: Command.Cancel, keys: [k('escape'), ch('c', true)], label: 'Esc', help: 'cancel', hint: 'Esc cancel' },
    ...LINE_EDITS,
  ],
  // The prompt's results: how it went in each session.
  results: [
    { command: Command.SendAnyway, keys: [ch('!')], label: '!', help: 'send it anyway where a spent budget held it', hint: '! send anyway', when: 'held' },
    { command: Command.Cancel, keys: [k('escape'), k('return'), ch('q'), ch('c', true)], label: 'Esc Enter', help: 'close', hint: 'Esc close' },
  ],
  explain: [
    { command: Command.Cancel, keys: [k('escape'), ch('e'), ch('q'), k('return'), ch('c', true)], label: 'Esc e q', help: 'close', hint: 'Esc close' },
  ],
  // A session's diff (src/core/board/diff-board.ts): a cursor line, hunks and files, comments.
  diff: [
    { command: Command.Up, keys: [k('upArrow'), ch('k')], label: '↑ k', help: 'line up' },
    { command: Command.Down, keys: [k('downArrow'), ch('j')], label: '↓ j', help: 'line down', hint: '↑↓ move' },
    { command: Command.PageUp, keys: [k('pageUp'), ch('b')], label: 'PgUp b', help: 'a page up' },
    { command: Command.PageDown, keys: [k('pageDown'), ch(' ')], label: 'PgDn Space', help: 'a page down' },
    { command: Command.First, keys: [k('home'), ch('g')], label: 'Home g', help: 'the start' },
    { command: Command.Last, keys: [k('end'), ch('G')], label: 'End G', help: 'the end' },
    { command: Command.NextHunk, keys: [ch(']')], label: ']', help: 'next hunk', hint: '[] hunk' },
    { command: Command.PrevHunk, keys: [ch('[')], label: '[', help: 'previous hunk' },
    { command: Command.NextFile, keys: [ch('}'), ch('n')], label: '} n', help: 'next file', hint: '{} file' },
    { command: Command.PrevFile, keys: [ch('{'), ch('N')], label: '{ N', help: 'previous file' },
    { command: Command.Comment, keys: [ch('c')], label: 'c', help: 'comment on the line', hint: 'c comment' },
    { command: Command.SendComments, keys: [ch('S')], label: 'S', help: 'send the comments as one prompt', hint: 'S send' },
    { command: Command.Help, keys: [ch('?')], label: '?', help: 'these keys', hint: '? keys' },
    { command: Command.Cancel, keys: [k('escape'), ch('q')], label: 'Esc q', help: 'back to the board', hint: 'Esc back' },
  ],
  'diff-comment': [
    { command: Command.Submit, keys: [k('return')], label: 'Enter', help: 'add the comment', hint: 'Enter add' },
    { command: Command.Cancel, keys: [k('escape'), ch('c', true)], label: 'Esc', help: 'drop it', hint: 'Esc cancel' },
    ...LINE_EDITS,
  ],
  type: [],
};

function matches(spec: KeySpec, input: string, key: KeyPress): boolean {
  if (spec.ctrl !== undefined && spec.ctrl !== Boolean(key.ctrl)) return false;
  if (spec.shift !== undefined && spec.shift !== Boolean(key.shift)) return false;
  if (spec.key) return Boolean(key[spec.key]);
  // A typed character: Alt (meta) plus it is another key.
  return spec.input === input && !key.meta;
}

/** The command a key means in a mode, or null (in text modes: maybe text to insert, see textOf). */
export function matchKey(mode: KeyMode, input: string, key: KeyPress): Command | null {
  for (const b of BINDINGS[mode]) {
    if (b.keys.some((spec) => matches(spec, input, key))) return b.command;
  }
  return null;
}

const CONTROL_KEYS: Record<string, KeyPress> = {
  '\r': { return: true },
  '\t': { tab: true },
  '\x7f': { delete: true },
  '\b': { backspace: true },
  '\x1b': { escape: true, meta: true },
};

/**
 * One key per character of a run of plain keys. Ink hands over a run of
 * characters without escape sequences as one input (it takes it for a paste),
 * and keys typed fast or while the board was busy ("jj", "x\r") arrive so.
 * Control characters become the keys they are (Ctrl-U: "u" with ctrl).
 */
export function splitKeys(input: string): [string, KeyPress][] {
  return Array.from(input, (c): [string, KeyPress] => {
    const named = CONTROL_KEYS[c];
    if (named) return ['', named];
    const code = c.charCodeAt(0);
    if (code >= 1 && code <= 26) return [String.fromCharCode(code + 96), { ctrl: true }];
    return [c, /[A-Z]/.test(c) ? { shift: true } : {}];
  });
}

/** Modes where unbound printable keys are typed into a field. */
export const TEXT_MODES: ReadonlySet<KeyMode> = new Set(['filter', 'form', 'chat', 'prompt', 'diff-comment']);

/** The printable text a key (or a paste) carries, or '' for none. */
export function textOf(input: string, key: KeyPress): string {
  if (key.ctrl || key.meta) return '';
  // Pasted newlines and tabs become spaces; other control characters go.
  return input.replace(/[\r\n\t]+/g, ' ').replace(/[\x00-\x1f\x7f]/g, '');
}
