import type { SendOutcome } from '../client/send/durable-send.js';
import { selectedSession } from '../core/board/board-derived.js';
import { unsentComments } from '../core/board/diff-board.js';
import type { DiffAction } from '../core/board/board-types.js';
import { commentPrompt } from '../core/board/diff-view.js';
import { Command } from '../core/board/keybindings.js';
import type { CommandContext } from './command-context.js';

/**
 * The diff view's commands: `D` opens it and loads the selected session's
 * diff; in it, keys move, comment, and `S` sends the unsent comments as one
 * prompt through send's exactly-once path (BoardActions.sendPrompt), then
 * marks them by how it went.
 */

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0] || 'failed';

const viewOf = (c: CommandContext, id: string) => c.sessions.find((s) => s.id === id) ?? null;

export function openDiff(c: CommandContext): void {
  const s = selectedSession(c.state, c.sessions);
  if (!s) return;
  if (!s.worktree) return c.dispatch({ type: 'message', text: `${s.name} has no worktree: D reviews sessions started with new --worktree` });
  c.dispatch({ type: 'open-diff', id: s.id, name: s.name });
  c.control.actions.diff(s).then(
    (model) => c.dispatch({ type: 'diff-loaded', id: s.id, model }),
    (err) => c.dispatch({ type: 'diff-failed', id: s.id, message: errorText(err) }),
  );
}

const MOVES: Partial<Record<Command, DiffAction>> = {
  [Command.Up]: { type: 'diff-move', by: -1 },
  [Command.Down]: { type: 'diff-move', by: 1 },
  [Command.PageUp]: { type: 'diff-page', by: -1 },
  [Command.PageDown]: { type: 'diff-page', by: 1 },
  [Command.First]: { type: 'diff-jump', to: 'first' },
  [Command.Last]: { type: 'diff-jump', to: 'last' },
  [Command.NextHunk]: { type: 'diff-jump', to: 'next-hunk' },
  [Command.PrevHunk]: { type: 'diff-jump', to: 'prev-hunk' },
  [Command.NextFile]: { type: 'diff-jump', to: 'next-file' },
  [Command.PrevFile]: { type: 'diff-jump', to: 'prev-file' },
  [Command.Help]: { type: 'diff-keys' },
  [Command.Comment]: { type: 'diff-comment' },
};

/** What a key does while the diff is open (its comment field included). */
export function diffCommand(cmd: Command, c: CommandContext): void {
  const o = c.state.overlay;
  if (o.kind !== 'diff') return;
  if (o.draft) {
    if (cmd === Command.Submit) return c.dispatch({ type: 'diff-comment-add' });
    if (cmd === Command.Cancel) return c.dispatch({ type: 'diff-comment-cancel' });
    if (cmd === Command.DeleteBack) return c.dispatch({ type: 'delete-back' });
    if (cmd === Command.ClearField) return c.dispatch({ type: 'clear-field' });
    return;
  }
  if (cmd === Command.Cancel) return c.dispatch({ type: 'diff-close' });
  if (cmd === Command.SendComments) return sendComments(c);
  const move = MOVES[cmd];
  if (move) c.dispatch(move);
}

function outcomeAction(id: string, n: number, name: string, o: SendOutcome): Extract<DiffAction, { type: 'diff-sent' }> {
  const what = `${n} comment${n === 1 ? '' : 's'}`;
  switch (o.status) {
    case 'applied':
    case 'accepted':
      return { type: 'diff-sent', id, status: 'sent', message: `${what} sent to ${name} (${o.status})`, error: false };
    case 'unconfirmed':
      return { type: 'diff-sent', id, status: 'unconfirmed', message: `${what} to ${name}: unconfirmed (${o.message}); not sent again`, error: true };
    case 'not_typed':
      return { type: 'diff-sent', id, status: 'new', message: `${what} not typed into ${name}: ${o.message}`, error: true };
  }
}

/** S: the unsent comments, `file:line: comment` a line, as one prompt, exactly once. */
export function sendComments(c: CommandContext): void {
  const o = c.state.overlay;
  if (o.kind !== 'diff') return;
  const unsent = unsentComments(o);
  if (unsent.length === 0) return c.dispatch({ type: 'message', text: 'no unsent comments: c on a line writes one' });
  if (o.comments.some((x) => x.status === 'sending')) return;
  const s = viewOf(c, o.id);
  if (!s || s.status !== 'running') return c.dispatch({ type: 'message', text: `${o.name} is not running: its comments wait`, error: true });
  c.dispatch({ type: 'diff-sending' });
  c.dispatch({ type: 'message', text: `sending ${unsent.length} comment${unsent.length === 1 ? '' : 's'} to ${o.name}…` });
  const report = (a: Extract<DiffAction, { type: 'diff-sent' }>) => {
    c.dispatch(a);
    // Closed before the answer: the footer still says how it went.
    if (c.getState().overlay.kind !== 'diff') c.dispatch({ type: 'message', text: a.message, error: a.error });
  };
  c.control.actions.sendPrompt(s, commentPrompt(unsent)).then(
    (outcome) => report(outcomeAction(o.id, unsent.length, o.name, outcome)),
    (err) => report({ type: 'diff-sent', id: o.id, status: 'new', message: `comments not sent to ${o.name}: ${errorText(err)}`, error: true }),
  );
}
