/**
 * The prompt a wake types into an agent: who it is, which room, and the exact
 * command that reads what it was mentioned in. One line (a newline would
 * submit half of it), and never the message itself: the chat is read by the
 * agent, so a message cannot inject keystrokes into another agent's terminal.
 */
export interface WakeTextInput {
  name: string;
  room: string;
  /** The chat ids that mentioned it, oldest first. */
  mentionIds: readonly number[];
  /** How the agent runs our CLI (usually `agent-board`). */
  cli: string;
}

export function wakeText({ name, room, mentionIds, cli }: WakeTextInput): string {
  const since = Math.max(0, Math.min(...mentionIds) - 1);
  const n = mentionIds.length;
  return (
    `[agent-board] You are ${name} in chat room ${room}; ${n === 1 ? 'a message mentions' : `${n} messages mention`} you. ` +
    `Read: ${cli} chat read --room ${room} --since ${since} --mentions-only ; answer with: ${cli} chat post --room ${room} "..."`
  );
}
