/** `agent-board mcp`: the chat served as MCP tools on stdin and stdout, for agents. */
import type { Command } from 'commander';
import { getHome } from '../context.js';

export function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description('serve the chat as MCP tools (chat_send, chat_read) on stdin and stdout, for agents')
    .action(async () => {
      // Loaded only here: the SDK and zod would slow every other command's start.
      const [{ StdioServerTransport }, { buildChatMcpServer }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/stdio.js'),
        import('../../client/chat/chat-mcp.js'),
      ]);
      const server = buildChatMcpServer(getHome(), process.env, program.version() ?? '0.0.0');
      const closed = new Promise<void>((resolve) => { server.server.onclose = resolve; });
      await server.connect(new StdioServerTransport());
      // stdin's end (the client went away) ends the server.
      process.stdin.on('end', () => void server.close());
      await closed;
    });
}
