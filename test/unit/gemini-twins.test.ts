/**
 * Gemini CLI's empty twins of a conversation, and first turns written without metadata
 * (src/core/agents/gemini-twins.ts): what a chat file holds, which files are twins safe to remove or
 * need their metadata line, and the sweep over a real folder laid out as Gemini CLI 0.61 leaves it
 * (the lines are its own shapes).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chatFacts, emptyTwins, headerless, type ChatFileFacts } from '../../src/core/agents/gemini-twins.js';
import { sweepGeminiTwins } from '../../src/state/usage/gemini-twins.js';
import { findTranscript } from '../../src/state/usage/transcript-find.js';

const ID = '0e711f42-f668-44ff-a5b7-fb37e8aec055';
const HASH = '67446013ba26a191d5a2267babd5d853302d7552fe94cf40bf1f632f76fa201b';
const j = (v: unknown) => `${JSON.stringify(v)}\n`;
const meta = (id = ID) => j({ sessionId: id, projectHash: HASH, startTime: '2026-12-05T02:59:01.000Z', lastUpdated: '2026-12-05T02:59:01.000Z', kind: 'main' });
const context = j({ $set: { messages: [{ id: 'c1', timestamp: '2026-12-05T02:59:01.001Z', type: 'user', content: [{ text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' }] }] } });
const user = (text: string) => j({ id: `u-${text.length}`, timestamp: '2026-12-05T02:59:02.000Z', type: 'user', content: [{ text }] });
const model = (content: string, more: Record<string, unknown> = {}) => j({ id: `g-${content.length}`, timestamp: '2026-12-05T02:59:03.000Z', type: 'gemini', content, thoughts: [], ...more });
/** A startup-only file: what Gemini opens for the id before it resumes the real one. */
const TWIN = meta() + context;
/** A conversation: a turn after the start-up lines. */
const REAL = meta() + context + user('Say hello') + j({ $set: { lastUpdated: '2026-12-05T02:59:02.000Z' } }) + model('Mock reply 1');

describe('chatFacts', () => {
  it('names the id of the first line, and holds a conversation only with a real user or model message', () => {
    expect(chatFacts(TWIN)).toEqual({ sessionId: ID, firstAt: '2026-12-05T02:59:01.001Z', resumable: false, readable: true });
    expect(chatFacts(REAL)).toEqual({ sessionId: ID, firstAt: '2026-12-05T02:59:01.001Z', resumable: true, readable: true });
    // A first turn written after the start-up file was deleted: no metadata; one appended later counts.
    const torn = user('Hello six') + model('Mock reply');
    expect(chatFacts(torn)).toEqual({ sessionId: null, firstAt: '2026-12-05T02:59:02.000Z', resumable: true, readable: true });
    expect(chatFacts(torn + meta()).sessionId).toBe(ID);
    // Gemini's own ignored input: commands, its injected contexts, nothing at all.
    for (const t of ['/help', '?', '  ', '<hook_context>x</hook_context>']) expect(chatFacts(meta() + user(t)).resumable, t).toBe(false);
    // A model message counts with text, tool calls or thoughts; an info line (a fork's "Imported session from") does not.
    expect(chatFacts(meta() + model('')).resumable).toBe(false);
    expect(chatFacts(meta() + model('', { toolCalls: [{ id: 't' }] })).resumable).toBe(true);
    expect(chatFacts(meta() + model('', { thoughts: [{ subject: 's' }] })).resumable).toBe(true);
    expect(chatFacts(meta() + j({ id: 'i', type: 'info', content: 'Imported session from x' })).resumable).toBe(false);
    // A list set by a metadata update counts as Gemini reads it (a resume writes the history so).
    expect(chatFacts(meta() + j({ $set: { messages: [{ id: 'a', type: 'user', content: [{ text: 'Hi' }] }] } })).resumable).toBe(true);
    // A part that is not text is content.
    expect(chatFacts(meta() + j({ id: 'f', type: 'user', content: [{ functionResponse: { name: 'x' } }] })).resumable).toBe(true);
  });

  it('a line that does not parse (a write under way) makes the file unreadable; a first line without a project hash names no id', () => {
    expect(chatFacts(TWIN + '{"id":"x","type":"us').readable).toBe(false);
    expect(chatFacts(j({ sessionId: ID }) + user('hi')).sessionId).toBeNull();
  });
});

describe('emptyTwins', () => {
  const f = (name: string, facts: Partial<ChatFileFacts>, mtimeNs: bigint): ChatFileFacts => ({ name, sessionId: ID, firstAt: null, resumable: false, readable: true, mtimeNs, ...facts });
  const real = (t: bigint) => f('session-2026-12-05T02-58-0e711f42.jsonl', { resumable: true }, t);
  const twin = (t: bigint, name = 'session-2026-12-05T02-59-0e711f42.jsonl') => f(name, {}, t);

  it('an empty file of the id, written before the file that holds the conversation was last written', () => {
    expect(emptyTwins([real(20n), twin(10n)], ID)).toEqual(['session-2026-12-05T02-59-0e711f42.jsonl']);
    // A fork's: the imported file is named by the millisecond.
    expect(emptyTwins([f('session-1796439569667-0e711f42.jsonl', { resumable: true }, 20n), twin(10n)], ID)).toEqual(['session-2026-12-05T02-59-0e711f42.jsonl']);
  });

  it('not while Gemini may still write it: the conversation not written since', () => {
    expect(emptyTwins([real(10n), twin(20n)], ID)).toEqual([]);
    expect(emptyTwins([real(10n), twin(10n)], ID)).toEqual([]);
  });

  it('not when no file holds the conversation (a session before its first turn), nor files of another id, nor unreadable ones', () => {
    expect(emptyTwins([twin(10n), twin(5n, 'session-2026-12-05T02-57-0e711f42.jsonl')], ID)).toEqual([]);
    const other = '0e711f42-0000-4000-8000-000000000000'; // the same eight characters
    expect(emptyTwins([real(20n), f('session-2026-12-05T02-59-0e711f42.jsonl', { sessionId: other }, 10n)], ID)).toEqual([]);
    expect(emptyTwins([real(20n), f('session-2026-12-05T02-59-0e711f42.jsonl', { readable: false }, 10n)], ID)).toEqual([]);
    expect(emptyTwins([real(20n), f('session-2026-12-05T02-59-0e711f42.json', {}, 10n)], ID)).toEqual([]);
  });
});

describe('headerless', () => {
  const f = (name: string, facts: Partial<ChatFileFacts>): ChatFileFacts => ({ name, sessionId: null, firstAt: null, resumable: true, readable: true, mtimeNs: 1n, ...facts });
  it('a file named for the id that holds a conversation and no metadata; not one still being written, nor an empty one', () => {
    const name = 'session-2026-12-05T03-49-0e711f42.jsonl';
    expect(headerless([f(name, {})], ID).map((x) => x.name)).toEqual([name]);
    expect(headerless([f(name, { readable: false }), f(name, { resumable: false }), f(name, { sessionId: ID }), f('session-2026-12-05T03-49-aaaabbbb.jsonl', {})], ID)).toEqual([]);
  });
});

describe('sweepGeminiTwins (a real folder)', () => {
  let dir = '';
  let chats = '';
  const env = () => ({ HOME: path.join(dir, 'home') });
  const put = (name: string, text: string, ageS: number) => {
    const file = path.join(chats, name);
    fs.writeFileSync(file, text);
    const t = Date.now() / 1000 - ageS;
    fs.utimesSync(file, t, t);
    return file;
  };
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-twins-'));
    chats = path.join(dir, 'home', '.gemini', 'tmp', 'project', 'chats');
    fs.mkdirSync(chats, { recursive: true });
    // Gemini writes the project's root beside its chats folder; the project's hash is its sha256.
    fs.writeFileSync(path.join(chats, '..', '.project_root'), '/work/project');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const NOW = Date.parse('2026-12-05T03:50:00.000Z');
  const sweep = () => sweepGeminiTwins({ resumeId: ID, cwd: '/work/project', env: env(), now: NOW });

  it('removes the twin once the conversation was written after it, and nothing else', () => {
    const realFile = put('session-2026-12-05T02-58-0e711f42.jsonl', REAL, 60);
    const twinFile = put('session-2026-12-05T02-59-0e711f42.jsonl', TWIN, 30);
    const another = put('session-2026-12-05T02-59-aaaabbbb.jsonl', meta('aaaabbbb-0000-4000-8000-000000000000') + context, 30);
    // Gemini has not moved on to the real file yet: the twin may still be written.
    expect(sweep()).toEqual({ removed: [], mended: [], dirs: [chats], errors: [] });
    expect(fs.existsSync(twinFile)).toBe(true);
    // The resume writes the real file (its `$set sessionId`): now the twin is left behind.
    fs.appendFileSync(realFile, j({ $set: { sessionId: ID } }));
    expect(sweep()).toEqual({ removed: [twinFile], mended: [], dirs: [chats], errors: [] });
    expect(fs.readdirSync(chats).sort()).toEqual([path.basename(realFile), path.basename(another)].sort());
    expect(fs.readFileSync(realFile, 'utf8')).toContain('Mock reply 1');
    expect(sweep()).toEqual({ removed: [], mended: [], dirs: [chats], errors: [] });
  });

  it('leaves a session that has no conversation yet, and a file being written, alone', () => {
    put('session-2026-12-05T02-58-0e711f42.jsonl', TWIN, 60);
    put('session-2026-12-05T02-59-0e711f42.jsonl', TWIN, 30);
    expect(sweep().removed).toEqual([]);
    put('session-2026-12-05T02-57-0e711f42.jsonl', REAL, 0);
    put('session-2026-12-05T02-59-0e711f42.jsonl', TWIN + '{"$set":{"mess', 30);
    expect(sweep().removed).toEqual([path.join(chats, 'session-2026-12-05T02-58-0e711f42.jsonl')]);
    expect(fs.existsSync(path.join(chats, 'session-2026-12-05T02-59-0e711f42.jsonl'))).toBe(true);
  });

  it('nothing saved yet: nothing to do', () => {
    fs.rmSync(chats, { recursive: true });
    expect(sweep()).toEqual({ removed: [], mended: [], dirs: [], errors: [] });
  });

  it('gives a first turn written without metadata its metadata line: found again by id, its start before its messages', () => {
    const file = put('session-2026-12-05T03-49-0e711f42.jsonl', user('Hello six') + model('Mock reply 3'), 0);
    expect(findTranscript({ kind: 'gemini', resumeId: ID, cwd: '/work/project', env: env() })).toBeNull();
    expect(sweep()).toEqual({ removed: [], mended: [file], dirs: [chats], errors: [] });
    const last = JSON.parse(fs.readFileSync(file, 'utf8').trimEnd().split('\n').at(-1)!) as Record<string, unknown>;
    expect(last).toMatchObject({ sessionId: ID, projectHash: crypto.createHash('sha256').update('/work/project').digest('hex'), startTime: '2026-12-05T02:59:02.000Z', lastUpdated: '2026-12-05T03:50:00.000Z', kind: 'main' });
    expect(chatFacts(fs.readFileSync(file, 'utf8'))).toMatchObject({ sessionId: ID, resumable: true, readable: true });
    expect(findTranscript({ kind: 'gemini', resumeId: ID, cwd: '/work/project', env: env() })).toBe(file);
    // Mended once: the next look finds it whole.
    expect(sweep().mended).toEqual([]);
  });

  it('limited to the folders given, it looks nowhere else', () => {
    put('session-2026-12-05T02-58-0e711f42.jsonl', REAL, 60);
    const twinFile = put('session-2026-12-05T02-59-0e711f42.jsonl', TWIN, 30);
    fs.appendFileSync(path.join(chats, 'session-2026-12-05T02-58-0e711f42.jsonl'), j({ $set: { sessionId: ID } }));
    const elsewhere = path.join(dir, 'home', '.gemini', 'tmp', 'other', 'chats');
    fs.mkdirSync(elsewhere, { recursive: true });
    expect(sweepGeminiTwins({ resumeId: ID, cwd: '/work/project', env: env(), now: NOW, dirs: [elsewhere] })).toEqual({ removed: [], mended: [], dirs: [], errors: [] });
    expect(sweepGeminiTwins({ resumeId: ID, cwd: '/work/project', env: env(), now: NOW, dirs: [elsewhere, chats] }).removed).toEqual([twinFile]);
  });

  it('without the project root beside the folder it cannot mend, and says so', () => {
    fs.rmSync(path.join(chats, '..', '.project_root'));
    const file = put('session-2026-12-05T03-49-0e711f42.jsonl', user('Hello six'), 0);
    expect(sweep()).toEqual({ removed: [], mended: [], dirs: [chats], errors: [`cannot mend ${file}: no project root beside ${chats}`] });
  });
});
