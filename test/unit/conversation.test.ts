/**
 * Each kind's conversation data and the one decision made from it
 * (src/core/agents/conversation.ts, src/client/session/conversation-launch.ts): the
 * words of every kind in every mode, where they go, and what restart and fork
 * do with a record whose conversation was saved, never saved, or never named.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGENT_KINDS } from '../../src/core/agents/agent-kinds.js';
import { launchFor } from '../../src/core/agents/agent-wiring.js';
import { conversationHome, conversationWords, savedPattern, wordsPickConversation } from '../../src/core/agents/conversation.js';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import { importedConversation, newConversation, planConversation, relaunchArgs, savedConversation } from '../../src/client/session/conversation-launch.js';
import { forkName } from '../../src/client/session/session-fork.js';
import { UserError } from '../../src/state/errors.js';

const ID = '11111111-1111-4111-8111-111111111111';
const NEW = '22222222-2222-4222-8222-222222222222';
const kind = (name: string) => AGENT_KINDS[name]!;

describe('the words of each kind', () => {
  const v = { id: ID, newId: NEW, home: '/h/.pi/agent', file: '/f.jsonl' };
  it.each([
    ['claude', 'start', ['--session-id', ID]],
    ['claude', 'resume', ['--resume', ID]],
    ['claude', 'fork', ['--resume', ID, '--fork-session', '--session-id', NEW]],
    ['codex', 'start', null],
    ['codex', 'resume', ['resume', ID]],
    ['codex', 'fork', ['fork', ID, '-C', '.']],
    ['gemini', 'start', ['--session-id', ID]],
    ['gemini', 'resume', ['--resume', ID]],
    ['gemini', 'fork', ['--session-file', '/f.jsonl']],
    ['pi', 'start', ['--session-dir', `/h/.pi/agent/sessions/agent-board-${ID}`]],
    ['pi', 'resume', ['--session-dir', `/h/.pi/agent/sessions/agent-board-${ID}`, '-c']],
    ['pi', 'fork', ['--session-dir', `/h/.pi/agent/sessions/agent-board-${NEW}`, '--fork', '/f.jsonl']],
    ['shell', 'start', null],
    ['shell', 'resume', null],
    ['shell', 'fork', null],
    ['demo', 'resume', null],
  ] as const)('%s %s', (k, mode, words) => {
    expect(conversationWords(kind(k).conversation, mode, v)).toEqual(words);
  });

  it('a placeholder without its value gives no words (a fork needs its saved file)', () => {
    expect(conversationWords(kind('gemini').conversation, 'fork', { id: ID })).toBeNull();
    expect(conversationWords(kind('pi').conversation, 'start', { id: ID })).toBeNull();
  });

  it('how the ids are known: given up front, learned from hooks, or none', () => {
    expect(Object.fromEntries(Object.values(AGENT_KINDS).map((k) => [k.name, [k.conversation.id, k.conversation.forkId]]))).toEqual({
      shell: ['none', 'learned'],
      claude: ['given', 'given'],
      codex: ['learned', 'learned'],
      gemini: ['given', 'learned'],
      pi: ['given', 'given'],
      demo: ['none', 'learned'],
    });
  });

  it("codex's subcommand goes before the user's words, the others' flags after; the wiring last", () => {
    const codex = launchFor(kind('codex'), ['--model', 'o3'], { conversation: ['resume', ID], sessionDir: '/s', shell: '/bin/sh' });
    expect(codex.args.slice(0, 4)).toEqual(['resume', ID, '--model', 'o3']);
    expect(codex.args[4]).toBe('-c');
    const claude = launchFor(kind('claude'), ['--model', 'opus'], { conversation: ['--resume', ID], sessionDir: '/s', shell: '/bin/sh' });
    expect(claude.args.slice(0, 4)).toEqual(['--model', 'opus', '--resume', ID]);
    expect(claude.args[4]).toBe('--settings');
    expect(claude.extraArgs).toEqual(['--model', 'opus']);
  });

  it("the user's own words may pick the conversation: then none of ours is given", () => {
    expect(wordsPickConversation(kind('claude').conversation, ['--resume', ID])).toBe(true);
    expect(wordsPickConversation(kind('claude').conversation, ['--session-id=' + ID])).toBe(true);
    expect(wordsPickConversation(kind('claude').conversation, ['--model', 'opus'])).toBe(false);
    expect(wordsPickConversation(kind('codex').conversation, ['resume', '--last'])).toBe(true);
    expect(wordsPickConversation(kind('codex').conversation, ['--model', 'resume'])).toBe(false);
    expect(wordsPickConversation(kind('pi').conversation, ['-c'])).toBe(true);
    expect(wordsPickConversation(kind('claude').conversation, ['--continue'])).toBe(true);
    expect(wordsPickConversation(kind('gemini').conversation, ['--model', 'x', '-r', 'latest'])).toBe(true);
    expect(newConversation(kind('claude'), ['--resume', ID])).toEqual({ words: [] });
    const mine = newConversation(kind('claude'), []);
    expect(mine.words).toEqual(['--session-id', mine.id]);
    expect(newConversation(kind('codex'), [])).toEqual({ words: [] });
  });

  it("each kind's state folder, moved by its own variable", () => {
    expect(conversationHome(kind('claude').conversation, '/u', undefined)).toBe('/u/.claude');
    expect(conversationHome(kind('claude').conversation, '/u', '/cfg')).toBe('/cfg');
    expect(conversationHome(kind('gemini').conversation, '/u', '/g')).toBe('/g/.gemini');
    expect(conversationHome(kind('shell').conversation, '/u', undefined)).toBeNull();
    expect(savedPattern(kind('gemini').conversation, ID)!.map(String)).toEqual(['/^tmp$/', '/^[^/]*$/', '/^chats$/', '/^session-[^/]*-11111111\\.json[^/]*$/']);
  });
});

describe('restart and fork of a record', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-conv-'));
    env = { HOME: dir };
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const rec = (agent: string, o: Partial<HostRecord> = {}): HostRecord => ({
    id: 'abcd0001', name: 'x', agent, command: agent, args: [], extraArgs: [], cwd: dir, createdAt: '', updatedAt: '', heartbeatAt: '', lastOutputAt: null,
    runnerPid: null, childPid: null, generation: null, status: 'exited', cols: 80, rows: 24, exitCode: 0, exitSignal: null, scrollback: 100, resumeId: ID, ...o,
  });
  const save = (rel: string, text = `{"sessionId":"${ID}"}\n`) => {
    const f = path.join(dir, rel);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, text);
    return f;
  };
  const saves: Record<string, string> = {
    claude: `.claude/projects/-p/${ID}.jsonl`,
    codex: `.codex/sessions/2026/12/01/rollout-2026-12-01T10-00-00-${ID}.jsonl`,
    gemini: `.gemini/tmp/p/chats/session-2026-12-01T10-00-${ID.slice(0, 8)}.jsonl`,
    pi: `.pi/agent/sessions/agent-board-${ID}/2026_x.jsonl`,
  };

  it.each(['claude', 'codex', 'gemini', 'pi'])('%s: a saved conversation is resumed, under its id', (k) => {
    const file = save(saves[k]!);
    expect(savedConversation(kind(k).conversation, ID, env)).toBe(file);
    const p = planConversation(rec(k), { mode: 'resume', env });
    expect(p).toMatchObject({ outcome: 'resumed', conversationId: ID, note: `conversation ${ID} resumed` });
    expect(p.words.join(' ')).toContain(ID);
  });

  it.each(['claude', 'gemini', 'pi'])('%s: a conversation never saved starts afresh under the same id, never a resume that fails', (k) => {
    const p = planConversation(rec(k), { mode: 'resume', env });
    expect(p.outcome).toBe('fresh');
    expect(p.conversationId).toBe(ID);
    expect(p.words).toEqual(conversationWords(kind(k).conversation, 'start', { id: ID, home: conversationHome(kind(k).conversation, dir, undefined)! }));
    expect(p.note).toBe(`conversation ${ID} was never saved (no turn yet): started afresh as ${ID}`);
  });

  it("gemini's file names only 8 characters of the id: the file must name the whole id", () => {
    save(saves.gemini!, '{"sessionId":"11111111-0000-4000-8000-000000000000"}\n');
    expect(savedConversation(kind('gemini').conversation, ID, env)).toBeNull();
  });

  it('codex before its first turn: no id yet, a fresh start without one', () => {
    expect(planConversation(rec('codex', { resumeId: undefined }), { mode: 'resume', env })).toEqual({
      words: [], outcome: 'fresh', note: 'its conversation id was never learned (codex names it after its first turn): started afresh',
    });
  });

  it('a shell has none: started afresh in its folder, and forks the same way', () => {
    const sh = rec('shell', { command: '/bin/bash', args: ['-l'], extraArgs: undefined, resumeId: undefined });
    expect(planConversation(sh, { mode: 'resume', env })).toMatchObject({ outcome: 'none', words: [] });
    expect(planConversation(sh, { mode: 'fork', env }).note).toBe(`shell has no conversation of its own; the fork is a fresh /bin/bash in ${dir}`);
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-conv-home-'));
    try {
      expect(relaunchArgs(home, sh, { mode: 'resume', env }).launch).toMatchObject({ command: '/bin/bash', args: ['-l'] });
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it.each([
    ['claude', NEW, ['--resume', ID, '--fork-session', '--session-id', NEW]],
    ['codex', undefined, ['fork', ID, '-C', '.']],
    ['gemini', undefined, ['--session-file', '<file>']],
    ['pi', NEW, ['--session-dir', '<home>/.pi/agent/sessions/agent-board-' + NEW, '--fork', '<file>']],
  ])('%s: a fork continues the saved conversation under a new id (%s)', (k, newId, words) => {
    const file = save(saves[k]!);
    const p = planConversation(rec(k), { mode: 'fork', newConversationId: NEW, env });
    expect(p.outcome).toBe('forked');
    expect(p.conversationId).toBe(newId);
    expect(p.words).toEqual(words.map((w) => w.replace('<file>', file).replace('<home>', dir)));
  });

  it('a fork that never saved its own conversation is forked from its source again', () => {
    const file = save(saves.claude!);
    expect(planConversation(rec('claude', { resumeId: NEW, forkOf: ID }), { mode: 'resume', env })).toEqual({
      words: ['--resume', ID, '--fork-session', '--session-id', NEW], conversationId: NEW, file, outcome: 'forked',
      note: `its fork of conversation ${ID} was never saved (no turn yet): forked again as ${NEW}`,
    });
    save(`.claude/projects/-p/${NEW}.jsonl`);
    expect(planConversation(rec('claude', { resumeId: NEW, forkOf: ID }), { mode: 'resume', env }).outcome).toBe('resumed');
    expect(planConversation(rec('codex', { resumeId: undefined, forkOf: ID }), { mode: 'resume', env }).outcome).toBe('fresh'); // its source was never saved either
  });

  it('a fork of a conversation not known or never saved is one clear error', () => {
    const err = (r: HostRecord) => {
      try {
        planConversation(r, { mode: 'fork', env });
      } catch (e) {
        return [(e as UserError).exitCode, (e as Error).message];
      }
      return null;
    };
    expect(err(rec('codex', { resumeId: undefined }))).toEqual([5, "x's conversation is not known yet (codex names it after its first turn): nothing to fork"]);
    expect(err(rec('claude'))).toEqual([5, `x's conversation ${ID} was never saved (no turn yet): nothing to fork; start a new session instead`]);
    expect(err(rec('claude', { extraArgs: ['--resume', ID] }))).toEqual([2, `x's own arguments pick its conversation (--resume ${ID}): agent-board cannot fork it`]);
  });

  it("the file gemini imported a fork into names the fork's id", () => {
    const source = save(saves.gemini!);
    const since = Date.now() - 1000;
    expect(importedConversation(kind('gemini').conversation, source, since, env)).toBeNull();
    save(`.gemini/tmp/q/chats/session-2026-12-01T11-00-${NEW.slice(0, 8)}.jsonl`, `{"sessionId":"${NEW}"}\n{"type":"info","content":"Imported session from ${source}"}\n`);
    expect(importedConversation(kind('gemini').conversation, source, since, env)).toBe(NEW);
  });

  it('relaunchArgs: the whole argv again, with the conversation in it', () => {
    save(saves.claude!);
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-conv-home-'));
    try {
      const r = relaunchArgs(home, rec('claude', { extraArgs: ['--model', 'opus'] }), { mode: 'resume', env });
      expect(r.launch.command).toBe('claude');
      expect(r.launch.args.slice(0, 4)).toEqual(['--model', 'opus', '--resume', ID]);
      expect(r.launch.args).toContain('--settings');
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('a fork is named <name>-fork-N, the first free', () => {
    expect(forkName('x', new Set(['x', 'x-fork-1']))).toBe('x-fork-2');
  });
});
