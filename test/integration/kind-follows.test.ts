/**
 * The kind follows what runs, through the real CLI and real runners:
 * `new -- claude` is a Claude session with its wiring (by the program's
 * name, or its real path through a symlink), `--agent shell` still forces a
 * shell, a shell session follows the agent typed at its prompt and falls
 * back when it exits, a user's rules file defines a kind for a wrapper, and
 * `explain` says why each shows what it shows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBoardActions } from '../../src/client/board-actions/board-actions.js';
import { cli, destroyHome, makeHome, ROOT, waitFor } from '../helpers/home.js';
import { REAL_TIME } from '../helpers/real-time.js';

const FAKE = path.join(ROOT, 'test', 'fixtures', 'programs', 'fake-claude.mjs');
let home: string;
let bin: string;
let env: Record<string, string>;

function script(file: string, body: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
}

beforeEach(() => {
  home = makeHome('ab-kind-');
  bin = path.join(home, 'bin');
  // `claude` on PATH is our fake (it runs the hooks it is given, as Claude does), a node script
  // named claude as npm installs it, so /proc shows `node .../claude` while it runs.
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, 'claude'), `#!${process.execPath}\nimport(${JSON.stringify(pathToFileURL(FAKE).href)});\n`, { mode: 0o755 });
  // `ai` is a symlink into an npm install of Claude Code: the name says nothing, the real path does.
  const pkg = path.join(home, 'lib', 'node_modules', '@anthropic-ai', 'claude-code', 'cli.js');
  script(pkg, `exec "${process.execPath}" "${FAKE}" "$@"`);
  fs.symlinkSync(pkg, path.join(bin, 'ai'));
  env = { PATH: `${bin}:${process.env.PATH}`, FAKE_CLAUDE_LOG: path.join(home, 'argv.jsonl'), AGENT_BOARD_CONFIG_HOME: path.join(home, 'config') };
});
afterEach(() => destroyHome(home));

type Rec = Record<string, unknown>;
const ls = () => JSON.parse(cli(home, ['ls', '--json'], { env }).stdout) as Rec[];
const rec = (name: string) => ls().find((s) => s.name === name)!;
const explain = (name: string) => {
  const r = cli(home, ['explain', name, '--json'], { env });
  if (r.code !== 0) throw new Error(`explain failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout) as Rec & { hooks: Rec; layers: Rec[]; foreground?: { pid: number } };
};

describe('the kind follows the program', () => {
  it('new -- claude is a Claude session with its hooks, as if --agent claude had been given', async () => {
    const r = cli(home, ['new', '--name', 'cc', '--', 'claude', '--model', 'opus'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(rec('cc')).toMatchObject({ agent: 'claude', command: 'claude', extraArgs: ['--model', 'opus'] });
    await waitFor('idle', () => rec('cc').activity === 'idle', 10_000);
    expect(cli(home, ['send', 'cc', 'go'], { env }).code).toBe(0);
    await waitFor('idle by its Stop hook', () => rec('cc').activitySource === 'hook' && rec('cc').activity === 'idle', 10_000);
    const x = explain('cc');
    expect(x).toMatchObject({ kind: 'claude', effectiveKind: 'claude', activity: 'idle', source: 'hook', hooks: { wired: true, lastEvent: 'Stop' } });
    expect(cli(home, ['ls'], { env }).stdout).toMatch(/\bcc\s+claude\s+idle\b/);
  });

  it('through a symlink whose real path is an npm install of the agent', () => {
    expect(cli(home, ['new', '--name', 'sym', '--', 'ai'], { env }).code).toBe(0);
    expect(rec('sym')).toMatchObject({ agent: 'claude', command: 'ai' });
    expect((rec('sym').args as string[]).includes('--settings')).toBe(true);
  });

  it("the board's new-session form: `claude` typed as the command is a Claude session too", async () => {
    const old = process.env.PATH;
    process.env.PATH = env.PATH; // createSession finds the program as the board's process would
    try {
      const rec = await createBoardActions(home, REAL_TIME, { ...process.env, ...env }).create({ kind: 'shell', name: 'fromboard', command: 'claude --model opus', cwd: home, room: 'default', worktree: false });
      expect(rec).toMatchObject({ agent: 'claude', command: 'claude', extraArgs: ['--model', 'opus'] });
      expect(rec.args).toContain('--settings');
      const sh = await createBoardActions(home, REAL_TIME, { ...process.env, ...env }).create({ kind: 'shell', name: 'plainsh', command: 'sh', cwd: home, room: 'default', worktree: false });
      expect(sh.agent).toBe('shell');
    } finally {
      process.env.PATH = old;
    }
  });

  it('--agent shell still forces a plain shell', () => {
    expect(cli(home, ['new', '--name', 'plain', '--agent', 'shell', '--', 'claude'], { env }).code).toBe(0);
    expect(rec('plain')).toMatchObject({ agent: 'shell', command: 'claude', args: [] });
  });

  it('a shell session follows the agent started at its prompt, and falls back when it exits', async () => {
    expect(cli(home, ['new', '--name', 'sh', '--', 'bash', '--norc', '--noprofile'], { env }).code).toBe(0);
    await waitFor('the shell idle', () => rec('sh').activity === 'idle', 10_000);
    expect(cli(home, ['send', 'sh', 'claude'], { env }).code).toBe(0);
    await waitFor('shell › claude', () => rec('sh').foregroundAgent === 'claude' && rec('sh').activitySource === 'title', 10_000);
    expect(cli(home, ['ls'], { env }).stdout).toMatch(/\bsh\s+shell › claude\s+idle\b/);
    const x = explain('sh');
    expect(x).toMatchObject({ kind: 'shell', effectiveKind: 'claude', activity: 'idle', source: 'title', hooks: { wired: false } });
    expect(String(x.hooks.note)).toMatch(/started by hand/);
    expect(x.layers.find((l) => l.source === 'title')).toMatchObject({ activity: 'idle', rule: { name: 'claude.title.ready' } });
    process.kill(x.foreground!.pid, 'SIGTERM');
    await waitFor('back to the shell', () => rec('sh').foregroundAgent === undefined && rec('sh').activitySource === 'bytes', 10_000);
    expect(explain('sh')).toMatchObject({ kind: 'shell', effectiveKind: 'shell' });
  });

  it("a user's rules file defines a kind for a wrapper; a bad entry is one line and the rest loads", async () => {
    fs.mkdirSync(env.AGENT_BOARD_CONFIG_HOME!, { recursive: true });
    const file = path.join(env.AGENT_BOARD_CONFIG_HOME!, 'agents.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        kinds: {
          mywrap: { extends: 'claude', programs: ['mywrap'], screen: [{ name: 'mywrap.screen.shortcuts', activity: 'idle', where: { tail: 3 }, match: ['\\? for shortcuts'] }] },
          broken: { programs: 'not a list' },
        },
      }),
    );
    script(path.join(bin, 'mywrap'), `exec "${process.execPath}" "${FAKE}" "$@"`);
    const r = cli(home, ['new', '--name', 'w', '--', 'mywrap'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`agent-board: ${file}: kind "broken": "programs" must be a list of program names (ignored)\n`);
    expect(rec('w')).toMatchObject({ agent: 'mywrap', command: 'mywrap' });
    await waitFor('idle by its hooks or title', () => rec('w').activity === 'idle', 10_000);
    const x = explain('w');
    expect(x.ruleFiles).toContain(file);
    expect((x.ruleErrors as string[])[0]).toMatch(/kind "broken"/);
    expect(x.hooks).toMatchObject({ wired: true });
  });

  it('explain: one clear line for an unknown session or one that has exited', async () => {
    const unknown = cli(home, ['explain', 'nope'], { env });
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/^agent-board: .*nope.*\n$/);
    expect(cli(home, ['new', '--name', 'brief', '--', 'true'], { env }).code).toBe(0);
    await waitFor('exited', () => rec('brief').status === 'exited');
    const gone = cli(home, ['explain', 'brief'], { env });
    expect(gone.code).toBe(5);
    expect(gone.stderr).toMatch(/^agent-board: session brief has exited \(exit code 0\)\n$/);
  });

  it('explain prints the layers as text', async () => {
    expect(cli(home, ['new', '--name', 'cc', '--', 'claude'], { env }).code).toBe(0);
    await waitFor('idle', () => rec('cc').activity === 'idle', 10_000);
    const out = cli(home, ['explain', 'cc'], { env }).stdout;
    expect(out).toMatch(/^cc: idle\nstate {4}idle from (hook|title), since \d\d:\d\d:\d\d \(\d+s ago\)\n/);
    expect(out).toMatch(/\ntitle {4}idle {2}\d\d:\d\d:\d\d \(\d+s ago\) {2}rule claude\.title\.ready \(.*src\/core\/agents\/rules\/claude\.json\)\n {11}read: "✳ Claude Code"\n/);
    expect(out).toMatch(/\nhooks {4}wired; last (SessionStart|Stop) at /);
  });
});
