/**
 * Resume and fork of every kind end to end, with the fake CLI per kind
 * (test/fixtures/programs/fake-agent.mjs, on PATH as `claude`, `codex`,
 * `gemini`, `pi`): the real CLI, runners and PTYs; each fake keeps its
 * conversation where its CLI does, under the test's $HOME, and refuses flags
 * its CLI would refuse. restart resumes the conversation, a fork continues it
 * under a new id (in a worktree too), and what cannot be done is one line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, destroyHome, makeHome, ROOT, waitFor } from '../helpers/home.js';

const FAKES = path.join(ROOT, 'test', 'fixtures', 'programs', 'fake');
const KINDS = ['claude', 'codex', 'gemini', 'pi'] as const;
let home: string;
let env: Record<string, string>;
let project: string;
beforeEach(() => {
  home = makeHome('ab-resume-');
  project = path.join(home, 'project');
  fs.mkdirSync(project);
  fs.mkdirSync(path.join(home, 'user'));
  // The fakes save under this $HOME; `agent-board` on PATH for their hooks.
  env = { HOME: path.join(home, 'user'), PATH: `${FAKES}:${path.join(ROOT, 'bin')}:${process.env.PATH ?? ''}` };
});
afterEach(() => destroyHome(home));

const ab = (args: string[]) => cli(home, args, { env });
const record = (ref: string) => (JSON.parse(ab(['ls', '--json']).stdout) as Array<{ id: string; name: string; resumeId?: string; status: string; cwd: string; worktree?: { branch: string } }>).find((s) => s.id === ref || s.name === ref)!;
/** What the fake shows: its conversation id and the lines it loaded. */
async function shown(name: string, lines: number): Promise<{ id: string; lines: string[] }> {
  const screen = await waitFor(`${name} shows ${lines} lines`, () => {
    const s = ab(['peek', name]).stdout;
    return new RegExp(`conversation \\S+: ${lines} lines`).test(s) && s;
  });
  const id = /conversation (\S+):/.exec(screen)![1]!;
  return { id, lines: [...screen.matchAll(/^\| (.*)$/gm)].map((m) => m[1]!.trimEnd()) };
}
async function start(kind: string, name: string): Promise<string> {
  const r = ab(['new', '--agent', kind, '--name', name, '--cwd', project]);
  expect(r.code, r.stderr).toBe(0);
  await shown(name, 0);
  return r.stdout.trim();
}
async function say(name: string, text: string, n: number): Promise<void> {
  expect(ab(['send', name, text]).code).toBe(0);
  await waitFor(`${name} answered`, () => ab(['peek', name]).stdout.includes(`reply ${n}: ${text}`));
}

describe.each(KINDS)('%s (its fake CLI)', (kind) => {
  it('restart resumes its conversation; before any turn it starts afresh instead of failing', async () => {
    const id = await start(kind, 'x');
    const given = record(id).resumeId;
    // Before a turn: nothing saved, so no resume (the real CLIs would refuse one), a fresh start, said so.
    const early = ab(['restart', 'x']);
    expect(early.code, early.stderr).toBe(0);
    // Codex has no id of ours; the one it printed on its way out (`codex resume <id>`) was never saved either.
    expect(early.stdout).toMatch(kind === 'codex' ? /: conversation \S+ was never saved \(no turn yet\): started afresh$/m : new RegExp(`conversation ${given} was never saved \\(no turn yet\\): started afresh as ${given}$`, 'm'));
    await shown('x', 0);
    await say('x', `first ${kind} line`, 1);
    const conv = await waitFor('the conversation id known', () => record(id).resumeId);
    const r = ab(['restart', 'x']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^x restarted \\(running, generation \\S+\\): conversation ${conv} resumed$`, 'm'));
    const back = await shown('x', 1);
    expect(back.lines).toEqual([`first ${kind} line`]);
    await say('x', 'second line', 2);
    expect(record(id).resumeId).toBe(conv);
  });

  it('fork continues the conversation under a new id; the original runs on', async () => {
    const id = await start(kind, 'x');
    await say('x', `first ${kind} line`, 1);
    const conv = await waitFor('the conversation id known', () => record(id).resumeId);
    const r = ab(['fork', 'x']);
    expect(r.code, r.stderr).toBe(0);
    const fid = r.stdout.trim();
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`agent-board: x-fork-1: conversation ${conv} forked as`);
    const fork = await shown('x-fork-1', 1);
    expect(fork.lines).toEqual([`first ${kind} line`]);
    await say('x-fork-1', 'only on the fork', 2);
    const fconv = await waitFor("the fork's conversation id", () => record(fid).resumeId);
    expect(fconv).not.toBe(conv);
    expect(record(id)).toMatchObject({ status: 'running', resumeId: conv });
    // The fork's conversation is its own: restarting it brings back both of its lines, the source's only one.
    ab(['restart', 'x-fork-1']);
    expect((await shown('x-fork-1', 2)).lines).toEqual([`first ${kind} line`, 'only on the fork']);
    ab(['restart', 'x']);
    expect((await shown('x', 1)).lines).toEqual([`first ${kind} line`]);
  });
});

describe('resume and fork: the rest', () => {
  it.each(['claude', 'codex'])('%s: a fork restarted before its first turn is forked again, keeping the history it was forked with', async (kind) => {
    await start(kind, 'x');
    await say('x', 'the shared start', 1);
    const source = await waitFor('the conversation id known', () => record('x').resumeId);
    const fid = ab(['fork', 'x']).stdout.trim();
    await shown('x-fork-1', 1);
    const given = record(fid).resumeId;
    const r = ab(['restart', 'x-fork-1']);
    expect(r.stdout).toContain(`: its fork of conversation ${source} was never saved (no turn yet): forked again${given ? ` as ${given}` : ''}`);
    expect((await shown('x-fork-1', 1)).lines).toEqual(['the shared start']);
    await say('x-fork-1', 'now its own', 2);
    const own = await waitFor("the fork's own id", () => record(fid).resumeId);
    ab(['restart', 'x-fork-1']);
    expect(await shown('x-fork-1', 2)).toEqual({ id: own, lines: ['the shared start', 'now its own'] });
  });


  it('a /clear inside the CLI changes its id; the hook keeps host.json current', async () => {
    const id = await start('claude', 'x');
    const first = record(id).resumeId;
    await say('x', 'before the clear', 1);
    expect(ab(['send', 'x', '/clear']).code).toBe(0);
    const next = await waitFor('a new id', () => record(id).resumeId !== first && record(id).resumeId);
    await say('x', 'after the clear', 1);
    ab(['restart', 'x']);
    const back = await shown('x', 1);
    expect(back).toEqual({ id: next, lines: ['after the clear'] });
  });

  it('fork --worktree: a new worktree from the source HEAD, the conversation continued, one line on what is not carried', async () => {
    const git = (...a: string[]) => execFileSync('git', a, { cwd: project, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });
    git('init', '-q');
    git('commit', '-q', '--allow-empty', '-m', 'one');
    const head = git('rev-parse', 'HEAD').trim();
    fs.writeFileSync(path.join(project, 'dirty.txt'), 'not committed');
    await start('claude', 'x');
    await say('x', 'plan the work', 1);
    const r = ab(['fork', 'x', '--worktree', 'try-b', '--name', 'b']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`agent-board: b: the worktree starts at x's HEAD (${head.slice(0, 12)}): its uncommitted changes are not carried`);
    const b = record('b');
    expect(b.worktree?.branch).toBe('try-b');
    expect(b.cwd).not.toBe(project);
    expect(fs.existsSync(path.join(b.cwd, 'dirty.txt'))).toBe(false);
    expect(execFileSync('git', ['rev-parse', 'HEAD'], { cwd: b.cwd, encoding: 'utf8' }).trim()).toBe(head);
    expect((await shown('b', 1)).lines).toEqual(['plan the work']);
  });

  it('a shell forks as a fresh shell in the same folder, and says so', async () => {
    const r0 = ab(['new', '--name', 'sh', '--cwd', project, '--', '/bin/sh']);
    expect(r0.code, r0.stderr).toBe(0);
    const r = ab(['fork', 'sh']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.trim()).toBe(`agent-board: sh-fork-1: shell has no conversation of its own; the fork is a fresh /bin/sh in ${record('sh').cwd}`);
    expect(record('sh-fork-1')).toMatchObject({ cwd: record('sh').cwd, status: 'running' });
  });

  it('the errors: an unknown session (3), a conversation not known yet or never saved (5), each one line', async () => {
    const unknown = ab(['fork', 'nosuch']);
    expect([unknown.code, unknown.stderr.trim().split('\n').length]).toEqual([3, 1]);
    await start('codex', 'cx');
    const codex = ab(['fork', 'cx']);
    expect(codex.code).toBe(5);
    expect(codex.stderr).toBe("agent-board: cx's conversation is not known yet (codex names it after its first turn): nothing to fork\n");
    const id = await start('claude', 'cc');
    const claude = ab(['fork', 'cc']);
    expect(claude.code).toBe(5);
    expect(claude.stderr).toBe(`agent-board: cc's conversation ${record(id).resumeId} was never saved (no turn yet): nothing to fork; start a new session instead\n`);
    expect(record('cc-fork-1')).toBeUndefined();
  });

  it('the fakes refuse flags their CLI does not know', () => {
    const run = (name: string, args: string[]) => {
      try {
        execFileSync(path.join(FAKES, name), args, { encoding: 'utf8', env: { ...process.env, HOME: env.HOME }, stdio: 'pipe' });
        return 0;
      } catch (e) {
        return (e as { status: number }).status;
      }
    };
    expect(run('claude', ['--frobnicate'])).toBe(1);
    expect(run('codex', ['--frobnicate'])).toBe(2);
    expect(run('claude', ['--resume', '11111111-1111-4111-8111-111111111111'])).toBe(1);
    expect(run('gemini', ['--resume', '11111111-1111-4111-8111-111111111111'])).toBe(42);
    expect(run('pi', ['--fork', 'x', '-c'])).toBe(1);
  });
});
