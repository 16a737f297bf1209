/**
 * The simulated reboot: a home with a session of every kind (each agent CLI's fake,
 * test/fixtures/programs/fake-agent.mjs, which keeps its conversation where the real CLI does),
 * a shell, one in a worktree of a real git repository, two rooms, each given some conversation;
 * then every runner and every program's process group SIGKILLed. `ls` shows them lost; `revive
 * --all` brings each back in place, each agent with the conversation it had, the shell fresh in
 * its folder, one line per session; a second `revive --all` has nothing to do.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, destroyHome, makeHome, ROOT, waitForPeekLines } from '../helpers/home.js';
import { powerCut, records } from '../helpers/reboot.js';
import { makeRepo } from './worktree-new-helpers.js';

const FAKE = path.join(ROOT, 'test', 'fixtures', 'programs', 'fake');
const AGENTS = ['claude', 'codex', 'gemini', 'pi'] as const;

let home: string;
let userHome: string;
let repo: { root: string; repo: string };
let shellDir: string;
beforeEach(() => {
  home = makeHome();
  // The fakes keep their conversations under $HOME, as the real CLIs do: the runners inherit it from the CLI.
  userHome = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-user-'));
  shellDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ab-shell-')));
  repo = makeRepo();
});
afterEach(() => {
  destroyHome(home);
  for (const d of [userHome, shellDir, repo.root]) fs.rmSync(d, { recursive: true, force: true });
});

// The fakes run the hooks agent-board wires, which call agent-board: on PATH, as after an install.
const env = () => ({ HOME: userHome, PATH: `${path.join(ROOT, 'bin')}:${process.env.PATH}`, SHELL: '/bin/sh' });
const run = (args: string[]) => cli(home, args, { env: env() });
function ok(args: string[]): string {
  const r = run(args);
  if (r.code !== 0) throw new Error(`${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}
const peekText = async (name: string) => (await waitForPeekLines(home, name, 'a screen', () => true)).join('\n');

describe('a simulated reboot', () => {
  it('revive --all brings every kind back in place, each agent with its conversation, the shell fresh in its folder', async () => {
    const rooms: Record<string, string> = { claude: 'alpha', codex: 'alpha', gemini: 'beta', pi: 'beta', sh: 'beta' };
    for (const k of ['claude', 'codex', 'pi'] as const) ok(['new', '--name', k, '--room', rooms[k]!, '--agent', k, '--command', path.join(FAKE, k)]);
    // Gemini in its own worktree of a real repository.
    ok(['new', '--name', 'gemini', '--room', 'beta', '--cwd', repo.repo, '--worktree', '--agent', 'gemini', '--command', path.join(FAKE, 'gemini')]);
    ok(['new', '--name', 'sh', '--room', 'beta', '--cwd', shellDir, '--agent', 'shell', '--', 'sh']);
    for (const k of AGENTS) {
      await waitForPeekLines(home, k, 'its prompt', (l) => l.some((x) => x.startsWith(`fake-${k} conversation`)));
      ok(['send', k, `remember ${k}-42`]);
      await waitForPeekLines(home, k, 'its reply', (l) => l.some((x) => x.includes(`reply 1: remember ${k}-42`)));
    }
    ok(['send', 'sh', 'echo before-$((40+2))']);
    await waitForPeekLines(home, 'sh', 'the shell output', (l) => l.includes('before-42'));
    // The agents learn or were given their conversation ids (Codex: from its first turn's hook).
    for (const k of AGENTS) await waitForPeekLines(home, k, 'its id recorded', () => records(home).get(k)?.resumeId !== undefined);
    const before = records(home);
    expect(before.get('gemini')!.worktree).toBeDefined();

    await powerCut(home);
    const ls = JSON.parse(ok(['ls', '--json'])) as { name: string; status: string }[];
    expect(ls.map((s) => s.status)).toEqual(['lost', 'lost', 'lost', 'lost', 'lost']);

    const r = run(['revive', '--all']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(5);
    for (const k of AGENTS) expect(lines).toContain(`${k} revived (${k}, conversation ${before.get(k)!.resumeId!.slice(0, 4)}… resumed)`);
    expect(lines).toContain(`sh revived (shell, started fresh in ${shellDir})`);

    const after = records(home);
    for (const [name, was] of before) {
      const now = after.get(name)!;
      expect(now).toMatchObject({ id: was.id, name, room: rooms[name], cwd: was.cwd, agent: was.agent, status: 'running' });
      expect(now.worktree).toEqual(was.worktree);
      expect(now.generation).not.toBe(was.generation);
      expect(now.runnerPid).not.toBe(was.runnerPid);
    }
    for (const k of AGENTS) {
      // Each fake says which conversation it loaded, and shows the line it had.
      const text = await peekText(k);
      expect(text).toMatch(new RegExp(`fake-${k} conversation \\S+: 1 lines`));
      expect(text).toContain(`| remember ${k}-42`);
    }
    const shell = await peekText('sh');
    expect(shell).not.toContain('before-42');
    ok(['send', 'sh', 'echo "now in $PWD"']);
    await waitForPeekLines(home, 'sh', 'its folder', (l) => l.includes(`now in ${shellDir}`));

    const again = run(['revive', '--all']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('no session is lost: nothing to do\n');
  });
});
