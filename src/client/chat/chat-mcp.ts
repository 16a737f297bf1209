import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CONTINUE_COMMAND, DEFAULT_ROOM, MAX_CHAT_TEXT, type ChatRecord } from '../../core/chat/chat.js';
import { UserError } from '../../state/errors.js';
import { chatIdentity, formatRecord, postChat, readerName, readRoom, roomFor } from './chat-participant.js';

/**
 * The chat as MCP tools, for agents that prefer tools to shell commands. The
 * identity rule is the CLI's: inside a session (AGENT_BOARD_SESSION in the
 * server's environment, which the agent's own environment passes on) the
 * sender is that session, an agent; outside, a human. It is read at every
 * call, so a rename is seen.
 */

const recordShape = {
  id: z.number().int(),
  ts: z.string(),
  from: z.string(),
  kind: z.enum(['human', 'agent', 'system']),
  text: z.string(),
  mentions: z.array(z.string()),
  event: z.enum(['pause', 'resume']).optional(),
};

export function buildChatMcpServer(home: string, env: NodeJS.ProcessEnv, version: string): McpServer {
  const server = new McpServer(
    { name: 'agent-board', version },
    { instructions: 'Chat with the other agents and the humans of your agent-board room. Mention someone with @name (@all for everyone); read new messages with chat_read and since = the last id you saw.' },
  );

  server.registerTool('chat_send', {
    title: 'Post to the room chat',
    description: `Post a message to the chat of your room (or another room). Mention members with @name, everyone with @all; mentions inside \`code\` do not count. Humans resume a room paused by the loop guard with ${CONTINUE_COMMAND}.`,
    inputSchema: {
      text: z.string().min(1).max(MAX_CHAT_TEXT).describe('the message'),
      room: z.string().optional().describe('the room; default: your session\'s room'),
    },
  }, async ({ text, room }): Promise<CallToolResult> => guarded(async () => {
    const who = chatIdentity(home, env);
    const r = roomFor(who, room);
    const res = await postChat(home, who, r, text);
    const lines = [`posted #${res.record.id} to ${r} as ${who.name}`];
    if (res.system) lines.push(formatRecord(res.system));
    else if (res.guard.paused) lines.push(`room ${r} is paused by the loop guard: your message is kept, but nobody is woken until a human posts ${CONTINUE_COMMAND}`);
    return { content: [{ type: 'text', text: lines.join('\n') }] };
  }));

  server.registerTool('chat_read', {
    title: 'Read the room chat',
    description: 'Read the messages of your room (or another room), oldest first, as "#id hh:mm from: text". Pass since = the last id you saw to get only newer ones.',
    inputSchema: {
      room: z.string().optional().describe('the room; default: your session\'s room'),
      since: z.number().int().min(0).optional().describe('only messages with an id above this'),
      mentions_only: z.boolean().optional().describe('only messages that mention you (or @all)'),
    },
    outputSchema: { messages: z.array(z.object(recordShape)), last_id: z.number().int() },
  }, async ({ room, since, mentions_only }): Promise<CallToolResult> => guarded(async () => {
    const inSession = Boolean(env.AGENT_BOARD_SESSION);
    const r = inSession ? roomFor(chatIdentity(home, env), room) : roomFor({ room: DEFAULT_ROOM }, room);
    const reader = mentions_only ? readerName(home, env, undefined) : undefined;
    if (mentions_only && reader === undefined) throw new UserError('mentions_only needs a session: this server runs outside one');
    const messages: ChatRecord[] = readRoom(home, r, { sinceId: since ?? 0, mentionsOf: reader });
    const text = messages.length ? messages.map(formatRecord).join('\n') : `no messages in ${r}${since ? ` after #${since}` : ''}`;
    return { content: [{ type: 'text', text }], structuredContent: { messages, last_id: messages.at(-1)?.id ?? since ?? 0 } };
  }));

  return server;
}

/** A UserError becomes a tool error the agent can read; anything else is the SDK's to report. */
async function guarded(fn: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof UserError) return { isError: true, content: [{ type: 'text', text: err.message }] };
    throw err;
  }
}
