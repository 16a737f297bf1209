/** The chat pane: a room's title line, its messages and the input line, in place of the preview. */
import { Box } from 'ink';
import type { ChatOverlay } from '../../core/board/board-types.js';
import { roomOf } from '../../core/chat/chat.js';
import { useBoardState } from '../contexts/BoardStateContext.js';
import { useChatFeed } from '../hooks/useChatFeed.js';
import { ChatInput } from './ChatInput.js';
import { ChatLog } from './ChatLog.js';
import { ChatTitle } from './ChatTitle.js';

export interface ChatPaneProps {
  chat: ChatOverlay;
  /** Rows under the title line (as for the preview): the messages and the input line. */
  rows: number;
  width: number;
}

/** The chat of a room in place of the preview: a title line, the messages (newest at the bottom), and the input line. */
export function ChatPane({ chat: o, rows, width }: ChatPaneProps) {
  const { chat } = useChatFeed();
  const { sessions } = useBoardState();
  const room = chat?.room === o.room ? chat : null;
  const members = sessions.filter((s) => roomOf(s) === o.room).map((s) => s.name);
  return (
    <Box flexDirection="column" width={width} height={rows + 1}>
      <ChatTitle room={o.room} members={members} paused={room?.paused ?? false} scrolled={o.scroll > 0} width={width} />
      <ChatLog room={o.room} records={room?.records ?? null} rows={Math.max(0, rows - 1)} width={width} scroll={o.scroll} />
      <ChatInput value={o.input} pending={o.pending} width={width} />
    </Box>
  );
}
