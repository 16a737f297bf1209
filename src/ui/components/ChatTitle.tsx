/** The chat pane's title line: the room, its members, and whether the loop guard paused it. */
import { Text } from 'ink';
import { cut, textWidth } from '../text-width.js';

export interface ChatTitleProps {
  room: string;
  /** The sessions on the board in the room. */
  members: readonly string[];
  paused: boolean;
  /** The view is scrolled back from the newest. */
  scrolled: boolean;
  width: number;
}

const PAUSED = '⏸ paused: /continue resumes ';
const SCROLLED = '↑ scrolled back: End for the newest ';

/** `── chat ROOM (members) ───`, saying when the loop guard paused the room and when the view is scrolled back. */
export function ChatTitle({ room, members, paused, scrolled, width }: ChatTitleProps) {
  const notes = (paused ? PAUSED : '') + (scrolled ? SCROLLED : '');
  const who = members.length ? ` (${members.join(', ')})` : '';
  const head = cut(`── chat ${room}${who} `, Math.max(0, width - textWidth(notes)));
  const rest = Math.max(0, width - textWidth(head) - textWidth(notes));
  return (
    <Text wrap="truncate-end">
      <Text bold>{head}</Text>
      {paused ? <Text color="yellow">{PAUSED}</Text> : null}
      {scrolled ? <Text color="cyan">{SCROLLED}</Text> : null}
      <Text dimColor>{'─'.repeat(rest)}</Text>
    </Text>
  );
}
