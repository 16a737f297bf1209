import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatRecord } from '../../src/core/chat/chat.js';
import { readChat } from '../../src/state/chat-store.js';
import { makeHome, ROOT } from '../helpers/home.js';
import { fakeSession } from '../helpers/chat.js';

const MAIN = path.join(ROOT, 'dist', 'cli', 'main.js');

let home: string;
const clients: Client[] = [];
beforeEach(() => {
  home = makeHome('ab-mcp-');
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  fs.rmSync(home, { recursive: true, force: true });
});

/** The real `agent-board mcp`, spoken to by the SDK's own client over stdio. */
async function connect(env: Record<string, string> = {}): Promise<Client> {
  const base = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && e[0] !== 'AGENT_BOARD_SESSION'));
  const transport = new StdioClientTransport({ command: process.execPath, args: [MAIN, 'mcp'], env: { ...base, AGENT_BOARD_HOME: home, ...env }, stderr: 'pipe' });
  const client = new Client({ name: 'agent-board-test', version: '0.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

type ToolResult = { content: { type: string; text?: string }[]; structuredContent?: { messages: ChatRecord[]; last_id: number }; isError?: boolean };
const call = async (c: Client, name: string, args: Record<string, unknown>) => (await c.callTool({ name, arguments: args })) as ToolResult;
const text = (r: ToolResult) => r.content.map((x) => x.text ?? '').join('\n');

describe('agent-board mcp', () => {
  it('lists chat_send and chat_read with their inputs', async () => {
    const c = await connect();
    const { tools } = await c.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual(['chat_read', 'chat_send']);
    expect(Object.keys(byName.chat_send!.inputSchema.properties ?? {}).sort()).toEqual(['room', 'text']);
    expect(byName.chat_send!.inputSchema.required).toEqual(['text']);
    expect(Object.keys(byName.chat_read!.inputSchema.properties ?? {}).sort()).toEqual(['mentions_only', 'room', 'since']);
  });

  it('an agent sends as its session to its room, reads back, and reads its mentions', async () => {
    const alice = fakeSession(home, 'alice', 'lab');
    const bob = fakeSession(home, 'bob', 'lab');
    const a = await connect({ AGENT_BOARD_SESSION: alice });
    const sent = await call(a, 'chat_send', { text: 'hello @Bob, see `@alice`' });
    expect(sent.isError).toBeFalsy();
    expect(text(sent)).toBe('posted #1 to lab as alice');
    expect(readChat(home, 'lab')[0]).toMatchObject({ id: 1, from: 'alice', kind: 'agent', mentions: ['bob'] });

    const b = await connect({ AGENT_BOARD_SESSION: bob });
    await call(b, 'chat_send', { text: 'thanks @alice' });
    await call(b, 'chat_send', { text: 'note to self' });
    const all = await call(a, 'chat_read', {});
    expect(text(all)).toMatch(/^#1 \d\d:\d\d alice: hello @Bob, see `@alice`\n#2 \d\d:\d\d bob: thanks @alice\n#3 \d\d:\d\d bob: note to self$/);
    expect(all.structuredContent?.last_id).toBe(3);
    const since = await call(a, 'chat_read', { since: 1 });
    expect(since.structuredContent?.messages.map((m) => m.id)).toEqual([2, 3]);
    const mine = await call(a, 'chat_read', { mentions_only: true });
    expect(mine.structuredContent?.messages.map((m) => m.text)).toEqual(['thanks @alice']);
    const bobs = await call(b, 'chat_read', { mentions_only: true, since: 0 });
    expect(bobs.structuredContent?.messages.map((m) => m.id)).toEqual([1]);
    const empty = await call(b, 'chat_read', { since: 3 });
    expect(text(empty)).toBe('no messages in lab after #3');
    expect(empty.structuredContent).toEqual({ messages: [], last_id: 3 });
  });

  it('outside a session it posts as a human; mentions_only needs a session; bad input is a tool error', async () => {
    fakeSession(home, 'alice');
    const h = await connect();
    expect(text(await call(h, 'chat_send', { text: '@alice hi' }))).toBe('posted #1 to default as human');
    expect(readChat(home, 'default')[0]).toMatchObject({ from: 'human', kind: 'human', mentions: ['alice'] });
    const noReader = await call(h, 'chat_read', { mentions_only: true });
    expect(noReader.isError).toBe(true);
    expect(text(noReader)).toMatch(/mentions_only needs a session/);
    const badRoom = await call(h, 'chat_send', { text: 'x', room: '../etc' });
    expect(badRoom.isError).toBe(true);
    expect(text(badRoom)).toMatch(/invalid room/);
    const empty = await call(h, 'chat_send', { text: '' });
    expect(empty.isError).toBe(true);
  });

  it('says when a post pauses the room, and keeps posts made while paused', async () => {
    const alice = fakeSession(home, 'alice', 'lab');
    fs.mkdirSync(path.join(home, 'rooms', 'lab'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(home, 'rooms', 'lab', 'room.json'), JSON.stringify({ maxHops: 4 }));
    const a = await connect({ AGENT_BOARD_SESSION: alice });
    for (let i = 0; i < 3; i++) await call(a, 'chat_send', { text: `hop ${i}` });
    expect(text(await call(a, 'chat_send', { text: 'hop 3' }))).toMatch(/^posted #4 to lab as alice\n#5 \d\d:\d\d system: loop guard: 4 agent messages/);
    expect(text(await call(a, 'chat_send', { text: 'still here' }))).toMatch(/^posted #6 to lab as alice\nroom lab is paused by the loop guard/);
  });
});
