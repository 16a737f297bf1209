/** The chat pane's commands: posting the input line and what the footer says after. */
import { CONTINUE_COMMAND } from '../core/chat/chat.js';
import type { ChatPosted } from '../client/feed/board-api.js';
import type { CommandContext } from './command-context.js';

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** What the footer says after a post, if anything: the message itself shows in the pane. */
export function postedText(room: string, text: string, r: ChatPosted): string | undefined {
  if (r.event === 'resume') return `room ${room} resumed: wakes are on again`;
  if (text === CONTINUE_COMMAND) return `room ${room} was not paused`;
  if (r.paused) return `room ${room} is paused: nobody is woken until ${CONTINUE_COMMAND}`;
  return undefined;
}

/** Enter in the chat pane: post the line through BoardActions; an error goes to the footer and the line stays. */
export function sendChat(c: CommandContext): void {
  const o = c.state.overlay;
  if (o.kind !== 'chat' || o.pending) return;
  const text = o.input.trim();
  if (!text) return;
  c.dispatch({ type: 'chat-pending' });
  c.control.actions.postChat(o.room, text).then(
    (r) => c.dispatch({ type: 'chat-posted', message: postedText(o.room, text, r) }),
    (err) => c.dispatch({ type: 'chat-failed', message: errorText(err) }),
  );
}
