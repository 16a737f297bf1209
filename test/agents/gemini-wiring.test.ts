/**
 * Where Gemini's settings layer goes (src/client/session/wiring-place.ts) and what it
 * holds (src/core/agents/agent-wiring.ts), without the CLI: Gemini CLI reads a layer
 * given by path only from a root-owned file in root-owned folders no one else
 * can write to (the check is read off its bundle; the lane in gemini.test.ts
 * runs the real CLI). When there is no such place, no layer, and a hooksNote.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSession } from '../../src/client/session/session-create.js';
import { geminiRefusal, wiringPlace } from '../../src/client/session/wiring-place.js';
import { AGENT_KINDS } from '../../src/core/agents/agent-kinds.js';
import { GEMINI_SETTINGS_FILE, wiringFor } from '../../src/core/agents/agent-wiring.js';
import { destroyHome, makeHome } from '../helpers/home.js';
import { REAL_TIME } from '../helpers/real-time.js';

const gemini = AGENT_KINDS.gemini!;
const root = process.getuid?.() === 0;
const tmpWorldWritable = (fs.statSync(os.tmpdir()).mode & 0o002) !== 0;
let home = '';
afterEach(() => {
  vi.restoreAllMocks();
  if (home) destroyHome(home);
  home = '';
});

describe('gemini wiring', () => {
  it('no place: no settings layer, and a one-line hooksNote that says where the status comes from', () => {
    const w = wiringFor(gemini, '/s', { none: 'we run as uid 1000' });
    expect(w.env).toEqual({});
    expect(w.files).toEqual({});
    expect(w.hooksNote).toBe("gemini's hooks and chat tools are not wired: we run as uid 1000; its status comes from its title and screen");
  });

  it("an administrator's system settings are kept: merged into ours, and the defaults file stays where it was", () => {
    const admin = { hooks: { AfterAgent: [{ hooks: [{ type: 'command', command: 'audit' }] }] }, mcpServers: { corp: { command: 'corp-mcp' } }, ui: { theme: 'x' } };
    const w = wiringFor(gemini, '/s', { dir: '/safe' }, { settings: admin, defaultsPath: '/etc/gemini-cli/system-defaults.json' });
    expect(w.env).toEqual({ GEMINI_CLI_SYSTEM_SETTINGS_PATH: `/safe/${GEMINI_SETTINGS_FILE}`, GEMINI_CLI_SYSTEM_DEFAULTS_PATH: '/etc/gemini-cli/system-defaults.json' });
    expect(w.filesDir).toBe('/safe');
    const s = JSON.parse(w.files[GEMINI_SETTINGS_FILE]!);
    expect(s.ui).toEqual({ theme: 'x' });
    expect(s.mcpServers).toEqual({ corp: { command: 'corp-mcp' }, 'agent-board': { command: 'agent-board', args: ['mcp'] } });
    expect(s.hooks.AfterAgent.map((d: { hooks: Array<{ command: string }> }) => d.hooks[0]!.command)).toEqual(['audit', 'agent-board hook gemini AfterAgent --json']);
    expect(s.hooksConfig).toEqual({ notifications: false, enabled: true });
  });

  it('a folder that group or others can write to is refused, and says which', () => {
    home = makeHome('ab-gemini-place-');
    const open = path.join(home, 'open');
    fs.mkdirSync(path.join(open, 'session'), { recursive: true });
    fs.chmodSync(open, 0o775);
    expect(geminiRefusal(path.join(open, 'session'))).toMatch(new RegExp(`^${open} is (writable by group or others \\(mode 775\\)|not owned by root)$`));
    if (tmpWorldWritable) expect(geminiRefusal(home)).toMatch(/writable by group or others|not owned by root/);
  });

  it('not root: no place at all (Gemini wants root-owned files)', () => {
    vi.spyOn(process, 'getuid').mockReturnValue(1000);
    expect(wiringPlace(gemini, '/h', 'abcd', '/h/sessions/abcd')).toEqual({ none: expect.stringMatching(/root-owned .* uid 1000$/) });
    // Other kinds take their files (none today) in the session folder.
    expect(wiringPlace(AGENT_KINDS.claude!, '/h', 'abcd', '/h/sessions/abcd')).toEqual({ dir: '/h/sessions/abcd' });
  });

  it.runIf(root && tmpWorldWritable)('root, home under a world-writable folder: a private folder elsewhere; gone sessions are pruned', () => {
    home = makeHome('ab-gemini-place-');
    fs.mkdirSync(path.join(home, 'sessions', 'live'), { recursive: true });
    const place = wiringPlace(gemini, home, 'live', path.join(home, 'sessions', 'live'));
    if (!('dir' in place)) throw new Error(`no place: ${place.none}`);
    const key = crypto.createHash('sha256').update(home).digest('hex').slice(0, 16);
    expect(place.dir.endsWith(path.join('wiring', key, 'live'))).toBe(true);
    expect(geminiRefusal(place.dir)).toBeNull();
    const stale = path.join(path.dirname(place.dir), 'gone');
    fs.mkdirSync(stale, { recursive: true });
    // A home that is gone: its whole folder goes.
    const goneHome = path.join(path.dirname(path.dirname(place.dir)), 'ab-test-gone-home');
    fs.mkdirSync(path.join(goneHome, 'x'), { recursive: true });
    fs.writeFileSync(path.join(goneHome, 'home'), path.join(home, 'no-such-home'));
    try {
      wiringPlace(gemini, home, 'live', path.join(home, 'sessions', 'live'));
      expect(fs.existsSync(stale)).toBe(false);
      expect(fs.existsSync(goneHome)).toBe(false);
      expect(fs.readFileSync(path.join(path.dirname(place.dir), 'home'), 'utf8')).toBe(home);
    } finally {
      fs.rmSync(path.dirname(place.dir), { recursive: true, force: true });
      fs.rmSync(goneHome, { recursive: true, force: true });
    }
  });

  it.runIf(root && tmpWorldWritable)("another `new` pruning while one writes its home's mark, or the mark's temporary file, removes no live session's settings", () => {
    // Sessions of one home start at once (a board's n, a script, the recordings suite's twelve): each
    // prunes the wiring folder while the others write theirs. A mark read half-written (empty) was
    // taken for a home that is gone, and the mark's temporary file for a gone session.
    home = makeHome('ab-gemini-place-');
    fs.mkdirSync(path.join(home, 'sessions', 'live'), { recursive: true });
    const place = wiringPlace(gemini, home, 'live', path.join(home, 'sessions', 'live'));
    if (!('dir' in place)) throw new Error(`no place: ${place.none}`);
    const keyDir = path.dirname(place.dir);
    const other = makeHome('ab-gemini-place-');
    try {
      fs.mkdirSync(place.dir, { recursive: true });
      fs.writeFileSync(path.join(place.dir, GEMINI_SETTINGS_FILE), '{}');
      const markTemp = path.join(keyDir, 'home.12345.tmp');
      fs.writeFileSync(markTemp, home);
      wiringPlace(gemini, other, 'o1', path.join(other, 'sessions', 'o1'));
      expect(fs.existsSync(markTemp)).toBe(true);
      fs.writeFileSync(path.join(keyDir, 'home'), ''); // as another `new` truncates it to write it
      wiringPlace(gemini, other, 'o2', path.join(other, 'sessions', 'o2'));
      expect(fs.existsSync(path.join(place.dir, GEMINI_SETTINGS_FILE))).toBe(true);
      // The mark is written whole, once: a later `new` in the home puts it back.
      wiringPlace(gemini, home, 'live', path.join(home, 'sessions', 'live'));
      expect(fs.readFileSync(path.join(keyDir, 'home'), 'utf8')).toBe(home);
    } finally {
      fs.rmSync(keyDir, { recursive: true, force: true });
      const otherKey = crypto.createHash('sha256').update(other).digest('hex').slice(0, 16);
      fs.rmSync(path.join(path.dirname(keyDir), otherKey), { recursive: true, force: true });
      destroyHome(other);
    }
  });

  it('`new` tells the note once (stderr by default), and the record keeps it', async () => {
    // Not root for the wiring only (its first look at the uid): the home checks still see the real one.
    const uid = vi.spyOn(process, 'getuid').mockReturnValueOnce(1000);
    home = makeHome('ab-gemini-note-');
    const notes: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    // A stand-in program: what matters here is the wiring `new` computes for the gemini kind.
    const words = ['-e', 'setInterval(() => {}, 1000)'];
    const rec = await createSession(home, { agent: 'gemini', command: process.execPath, args: [], words, cwd: home, onHooksNote: (n) => notes.push(n) }, REAL_TIME);
    expect(notes).toEqual([rec.hooksNote]);
    expect(rec.hooksNote).toMatch(/not wired: .*uid 1000; its status comes from its title and screen$/);
    expect(rec.env?.GEMINI_CLI_SYSTEM_SETTINGS_PATH).toBeUndefined();
    uid.mockReturnValueOnce(1000);
    await createSession(home, { agent: 'gemini', command: process.execPath, args: [], words, cwd: home }, REAL_TIME);
    expect(stderr.mock.calls.map((c) => String(c[0]))).toEqual([`agent-board: ${rec.hooksNote}\n`]);
  });
});
