/**
 * A new session as the user asks for it, worked out once (src/client/session/new-session.ts): what the
 * board's form shows before it starts anything and what `agent-board new` (and its
 * --interactive questions) start: the kind, the name it will get, the branch, the program it
 * runs, the same session as an `agent-board new` line, and what stops it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formRequest, kindChoices, planNewSession, repositoryOf, type NewRequest } from '../../src/client/session/new-session.js';
import { SHIPPED } from '../helpers/kinds.js';

let dir: string;
let repo: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-new-plan-'));
  repo = path.join(dir, 'app');
  fs.mkdirSync(path.join(repo, 'src'), { recursive: true });
  spawnSync('git', ['init', '-q', repo]);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const ctx = (more = {}) => ({ registry: SHIPPED, taken: [] as string[], from: dir, shell: '/bin/sh', ...more });

describe('planNewSession', () => {
  it("a sandbox: asked for, or config.json's for the room (over the kind's); --no-sandbox; the line says it", () => {
    const sandboxConfig = { kinds: { shell: { backend: 'bwrap' as const, network: 'all' as const } }, rooms: { risky: { backend: 'bwrap' as const, network: 'none' as const } }, allowHosts: {}, denyRead: [] };
    const asked = planNewSession({ words: ['sh'], cwd: dir, sandbox: { backend: 'container', image: 'node:22', network: 'allowlist', allowHosts: ['*.example.com', 'x.org:8080'], denyRead: ['/srv/keys'] } }, ctx({ sandboxConfig }));
    expect(asked.opts.extra?.sandbox).toEqual(asked.sandbox);
    expect(asked.line).toBe("agent-board new --sandbox container:node:22 --allow-host '*.example.com' --allow-host x.org:8080 --deny-read /srv/keys -- sh");
    const byKind = planNewSession({ words: ['sh'], cwd: dir }, ctx({ sandboxConfig }));
    expect(byKind.sandbox).toEqual({ backend: 'bwrap', network: 'all' });
    expect(byKind.line).toBe('agent-board new --sandbox --network all -- sh');
    const byRoom = planNewSession({ words: ['sh'], cwd: dir, room: 'risky' }, ctx({ sandboxConfig }));
    expect(byRoom.sandbox).toEqual({ backend: 'bwrap', network: 'none' });
    const off = planNewSession({ words: ['sh'], cwd: dir, sandbox: false }, ctx({ sandboxConfig }));
    expect(off.sandbox).toBeNull();
    expect(off.opts.extra?.sandbox).toBeUndefined();
    expect(off.line).toBe('agent-board new --no-sandbox -- sh');
    // The board's form: on is --sandbox (bubblewrap, allowlist), off is --no-sandbox, absent is config.json's.
    const form = (sandbox?: 'on' | 'off') => formRequest({ kind: 'shell', command: 'sh', cwd: dir, room: 'default', worktree: false, ...(sandbox ? { sandbox } : {}) }, { cols: 80, rows: 24 });
    expect(planNewSession(form('on') as NewRequest, ctx({ sandboxConfig })).line).toBe('agent-board new --sandbox -- sh');
    expect(planNewSession(form('off') as NewRequest, ctx({ sandboxConfig })).sandbox).toBeNull();
    expect(planNewSession(form() as NewRequest, ctx({ sandboxConfig })).sandbox).toEqual({ backend: 'bwrap', network: 'all' });
    const none = planNewSession({ words: ['sh'], cwd: dir }, ctx({ sandboxConfig: { kinds: {}, rooms: {}, allowHosts: {}, denyRead: [] } }));
    expect(none.sandbox).toBeNull();
    expect(none.line).toBe('agent-board new -- sh');
  });

  it('a shell: its command line, the name from its program, the line that starts the same', () => {
    const p = planNewSession({ words: ['sh', '-c', 'echo hi; sleep 1'], cwd: dir }, ctx({ taken: ['sh-1'] }));
    expect(p).toMatchObject({ kind: 'shell', name: 'sh-2', branch: null, runs: "sh -c 'echo hi; sleep 1'", problem: null, repo: null });
    expect(p.line).toBe("agent-board new -- sh -c 'echo hi; sleep 1'");
    expect(p.opts).toMatchObject({ command: 'sh', args: ['-c', 'echo hi; sleep 1'], agent: 'shell', room: 'default', name: undefined });
    // No words: $SHELL.
    expect(planNewSession({ words: [], cwd: dir }, ctx())).toMatchObject({ runs: '/bin/sh', name: 'sh-1', problem: null });
  });

  it('an agent: recognised from the words as `new -- claude` does, or chosen; its arguments; not installed is what stops it', () => {
    const typed = planNewSession({ words: ['claude', '--model', 'opus'], cwd: dir, name: 'api', room: 'team' }, ctx());
    expect(typed).toMatchObject({ kind: 'claude', runs: 'claude --model opus', name: 'api' });
    expect(typed.opts).toMatchObject({ agent: 'claude', command: 'claude', words: ['--model', 'opus'] });
    expect(typed.line).toBe('agent-board new --name api --room team -- claude --model opus');
    const chosen = planNewSession({ kind: 'codex', words: ['--full-auto'], cwd: dir }, ctx({ taken: ['codex-1'] }));
    expect(chosen).toMatchObject({ kind: 'codex', name: 'codex-2', runs: 'codex --full-auto' });
    expect(chosen.line).toBe('agent-board new --agent codex -- --full-auto');
    const missing = planNewSession({ kind: 'codex', words: [], cwd: dir }, ctx({ registry: SHIPPED }));
    if (!kindChoices(dir, SHIPPED).find((k) => k.name === 'codex')!.installed) expect(missing.problem).toBe('codex is not installed: install it, or pick another kind');
  });

  it('the demo kind runs the demo agent in its room, named demo-N', () => {
    const p = planNewSession({ kind: 'demo', words: [], cwd: dir, room: 'play' }, ctx({ taken: ['demo-1'] }));
    expect(p.name).toBe('demo-2');
    expect(p.runs).toMatch(/node\S* \S+\/dist\/demo\/demo-agent\.js --room play$/);
    expect(p.opts).toMatchObject({ nameBase: 'demo', agent: 'demo' });
    expect(p.line).toBe('agent-board new --agent demo --room play');
  });

  it('a worktree: its branch proposed from the name (or the default name), a branch of its own written in the line; none outside a repository', () => {
    const sub = path.join(repo, 'src');
    expect(repositoryOf(sub)).toBe(repo);
    const p = planNewSession({ kind: 'demo', words: [], name: 'Web UI', cwd: sub, worktree: {} }, ctx());
    expect(p).toMatchObject({ branch: 'agent/web-ui', repo, problem: 'invalid name "Web UI": use 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit' });
    const q = planNewSession({ words: ['sh'], cwd: repo, worktree: {} }, ctx({ taken: ['sh-1'] }));
    expect(q).toMatchObject({ name: 'sh-2', branch: 'agent/sh-2', problem: null });
    expect(q.line).toBe(`agent-board new -C ${repo} --worktree -- sh`);
    const own = planNewSession({ words: ['sh'], name: 'api', cwd: repo, worktree: { branch: 'feat/x', base: 'main' } }, ctx());
    expect(own.line).toBe(`agent-board new --name api -C ${repo} --worktree feat/x --base main -- sh`);
    expect(planNewSession({ words: ['sh'], cwd: dir, worktree: {} }, ctx()).problem).toBe(`${dir} is not in a git repository: a new worktree needs one`);
  });

  it('says what stops it, one line: a missing folder, a taken name, a bad room, a program not found, a kind nobody knows', () => {
    expect(planNewSession({ words: ['sh'], cwd: path.join(dir, 'nope') }, ctx()).problem).toBe(`folder ${path.join(dir, 'nope')} does not exist`);
    expect(planNewSession({ words: ['sh'], cwd: dir, name: 'api' }, ctx({ taken: ['api'] })).problem).toBe('a session named api already exists; pick another name');
    expect(planNewSession({ words: ['sh'], cwd: dir, room: '../x' }, ctx()).problem).toMatch(/^invalid room "\.\.\/x"/);
    expect(planNewSession({ words: ['no-such-program-here'], cwd: dir }, ctx()).problem).toBe('command not found: no-such-program-here');
    expect(planNewSession({ kind: 'gpt5', words: [], cwd: dir }, ctx()).problem).toMatch(/^unknown agent kind "gpt5"; the kinds are: shell, claude/);
  });

  it("the board's form: `shell` lets the command line say the kind; an unclosed quote is the form's problem", () => {
    const req = formRequest({ kind: 'shell', command: "claude --model 'big one'", cwd: dir, room: '', worktree: true, branch: 'feat/y' }, { cols: 80, rows: 24 });
    expect(req).toMatchObject({ kind: undefined, words: ['claude', '--model', 'big one'], room: 'default', worktree: { branch: 'feat/y' }, cols: 80 });
    expect(formRequest({ kind: 'claude', command: '', cwd: dir, room: 'r', worktree: false }, { cols: 80, rows: 24 })).toMatchObject({ kind: 'claude', words: [], worktree: undefined });
    expect(formRequest({ kind: 'shell', command: 'echo "hi', cwd: dir, room: 'r', worktree: false }, { cols: 80, rows: 24 })).toEqual({ error: 'the command has an unclosed "' });
  });

  it('kindChoices: every kind, with whether its program is on PATH', () => {
    const kinds = kindChoices(dir, SHIPPED);
    expect(kinds.map((k) => k.name)).toEqual(['shell', 'claude', 'codex', 'gemini', 'pi', 'demo']);
    expect(kinds[0]).toEqual({ name: 'shell', program: null, installed: true });
    expect(kinds[1]).toMatchObject({ name: 'claude', program: 'claude' });
  });
});
