/**
 * findTranscript: the file a session's usage is read from, where each CLI saves its conversation,
 * under $HOME or the CLI's own variable, the newest when there are several.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findTranscript } from '../../src/state/usage/transcript-find.js';

const ID = '2dc905ce-b927-43d1-b97e-f92909978fd5';
let dir = '';
let home = '';

function put(file: string, text = '{}\n', ageS = 0): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  const t = Date.now() / 1000 - ageS;
  fs.utimesSync(file, t, t);
  return file;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-transcript-'));
  home = path.join(dir, 'home');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('findTranscript', () => {
  const find = (kind: string, env: Record<string, string | undefined> = {}, cwd = '/work/my proj', resumeId = ID) => findTranscript({ kind, resumeId, cwd, env: { HOME: home, ...env } });

  it("claude: the conversation in its project's folder, or in any (the session moved), under CLAUDE_CONFIG_DIR when set", () => {
    expect(find('claude')).toBeNull();
    const own = put(path.join(home, '.claude', 'projects', '-work-my-proj', `${ID}.jsonl`));
    expect(find('claude')).toBe(own);
    expect(find('claude', {}, '/elsewhere')).toBe(own);
    const other = path.join(dir, 'claude-config');
    expect(find('claude', { CLAUDE_CONFIG_DIR: other })).toBeNull();
    const there = put(path.join(other, 'projects', '-work-my-proj', `${ID}.jsonl`));
    expect(find('claude', { CLAUDE_CONFIG_DIR: other })).toBe(there);
  });

  it('codex: its rollout file, whatever day it was started, under CODEX_HOME when set; the newest of two', () => {
    const codexHome = path.join(dir, 'codex');
    put(path.join(home, '.codex', 'sessions', '2026', '12', '04', `rollout-2026-12-04T21-15-51-${ID}.jsonl`));
    const older = put(path.join(codexHome, 'sessions', '2026', '11', '30', `rollout-2026-11-30T08-00-00-${ID}.jsonl`), '{}\n', 60);
    const newer = put(path.join(codexHome, 'sessions', '2026', '12', '01', `rollout-2026-12-01T08-00-00-${ID}.jsonl`));
    put(path.join(codexHome, 'sessions', '2026', '12', '01', 'rollout-2026-12-01T09-00-00-01a242e9-d859-70a2-a9eb-713a056a5d19.jsonl'));
    expect(find('codex', { CODEX_HOME: codexHome })).toBe(newer);
    fs.rmSync(newer);
    expect(find('codex', { CODEX_HOME: codexHome })).toBe(older);
  });

  it('gemini: the JSON Lines chat whose first line names the whole id (its name has 8 characters of it), under GEMINI_CLI_HOME when set', () => {
    const chats = path.join(home, '.gemini', 'tmp', 'project', 'chats');
    const meta = (id: string) => `${JSON.stringify({ sessionId: id, projectHash: 'h', kind: 'main' })}\n`;
    // Another conversation whose id starts alike, and the chat as Gemini kept it before 0.61.
    put(path.join(chats, `session-2026-12-04T21-16-${ID.slice(0, 8)}.jsonl`), meta(`${ID.slice(0, 8)}-0000-0000-0000-000000000000`));
    put(path.join(chats, `session-2026-12-04T21-10-${ID.slice(0, 8)}.json`), JSON.stringify({ sessionId: ID, messages: [] }));
    expect(find('gemini')).toBeNull();
    const chat = put(path.join(chats, `session-2026-12-04T21-12-${ID.slice(0, 8)}.jsonl`), meta(ID), 30);
    expect(find('gemini')).toBe(chat);
    const geminiHome = path.join(dir, 'gemini-home');
    const moved = put(path.join(geminiHome, '.gemini', 'tmp', 'other', 'chats', `session-2026-12-05T01-00-${ID.slice(0, 8)}.jsonl`), meta(ID));
    expect(find('gemini', { GEMINI_CLI_HOME: geminiHome })).toBe(moved);
  });

  it("pi: the newest file in the session's own folder (a /new inside pi starts another), under PI_CODING_AGENT_DIR when set", () => {
    const agentDir = path.join(dir, 'pi-agent');
    const folder = path.join(agentDir, 'sessions', `agent-board-${ID}`);
    put(path.join(folder, '2026-12-04T21-16-26-927Z_a.jsonl'), '{}\n', 60);
    const latest = put(path.join(folder, '2026-12-04T22-00-00-000Z_b.jsonl'));
    put(path.join(agentDir, 'sessions', 'agent-board-another', '2026-12-05T00-00-00-000Z_c.jsonl'));
    expect(find('pi', { PI_CODING_AGENT_DIR: agentDir })).toBe(latest);
    expect(find('pi')).toBeNull();
  });

  it('a kind with no transcript, or no conversation id yet, has none', () => {
    put(path.join(home, '.claude', 'projects', '-work-my-proj', `${ID}.jsonl`));
    expect(find('shell')).toBeNull();
    expect(find('demo')).toBeNull();
    expect(find('aider')).toBeNull();
    expect(find('claude', {}, '/work/my proj', '')).toBeNull();
  });
});
