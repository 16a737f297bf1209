/**
 * A session asked to be sandboxed where its sandbox cannot be made is refused before anything
 * starts (docs/sandbox.md, docs/cli.md exit 17): `new`, `fork`, `restart` and `revive` through the
 * real CLI, on a PATH without bubblewrap or with a bubblewrap that cannot make a sandbox. And
 * where it can be made, the session keeps its sandbox: ls shows it, fork keeps it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliAsync, destroyHome, makeHome, waitFor } from '../helpers/home.js';
import { findProgram } from '../../src/state/process/find-program.js';
import { requireSandbox, sandboxRefusal } from '../../src/client/session/sandbox-required.js';
import { UserError } from '../../src/state/errors.js';
import { realScheduler } from '../../src/state/real-time.js';
import { createBoardActions } from '../../src/client/board-actions/board-actions.js';
import { listSessions } from '../../src/state/host-store.js';
import { REAL_TIME } from '../helpers/real-time.js';

let home: string;
let cfg: string;
let noBwrap: string;
let badBwrap: string;
beforeEach(() => {
  home = makeHome('ab-sbx-refuse-');
  cfg = path.join(home, 'config');
  fs.mkdirSync(cfg);
  // A PATH with the usual programs but no bwrap: a folder of links to what the sessions run.
  noBwrap = path.join(home, 'bin-none');
  fs.mkdirSync(noBwrap);
  for (const p of ['sleep', 'sh', 'git']) {
    const at = findProgram(p, { env: process.env });
    if (at) fs.symlinkSync(at, path.join(noBwrap, p));
  }
  // A bwrap that cannot make a sandbox, as a kernel refusing user namespaces says it.
  badBwrap = path.join(home, 'bin-bad');
  fs.mkdirSync(badBwrap);
  fs.writeFileSync(path.join(badBwrap, 'bwrap'), '#!/bin/sh\nif [ "$1" = --version ]; then echo "bubblewrap 0.8.0"; exit 0; fi\necho "bwrap: No permissions to creating new namespace" >&2\nexit 1\n', { mode: 0o755 });
});
afterEach(() => destroyHome(home));

const run = (args: string[], env: Record<string, string> = {}) => cliAsync(home, args, { env: { AGENT_BOARD_CONFIG_HOME: cfg, ...env } });
const sessionFolders = () => (fs.existsSync(path.join(home, 'sessions')) ? fs.readdirSync(path.join(home, 'sessions')) : []);
const listed = async () => JSON.parse((await run(['ls', '--json'])).stdout) as { name: string; status: string; childPid: number | null; sandbox?: unknown; sandboxDenied?: unknown }[];

const hasBwrap = findProgram('bwrap', { env: process.env }) !== null;
if (!hasBwrap) console.log('\n!!! sandbox refusal: the kept-sandbox test is NOT RUN: bwrap is not installed (apt-get install bubblewrap) !!!\n');

describe('a sandbox that cannot be made: refused, nothing started', () => {
  it('new --sandbox with no bwrap on PATH: exit 17, one line, no session and no folder left', async () => {
    const r = await run(['new', '--sandbox', '--name', 'boxed', '--', '/bin/sleep', '100'], { PATH: noBwrap });
    expect(r.code).toBe(17);
    expect(r.stderr.trim().split('\n')).toEqual(['agent-board: cannot sandbox: bubblewrap (bwrap) is not installed (apt-get install bubblewrap, dnf install bubblewrap)']);
    expect(r.stdout).toBe('');
    expect(await listed()).toEqual([]);
    expect(sessionFolders()).toEqual([]);
  });

  it('new --sandbox with a bwrap that cannot make a sandbox: exit 17 with its words', async () => {
    const r = await run(['new', '--sandbox', '--network', 'none', '--', '/bin/sleep', '100'], { PATH: `${badBwrap}:${noBwrap}` });
    expect(r.code).toBe(17);
    expect(r.stderr).toContain('cannot sandbox: bubblewrap 0.8.0 cannot make a sandbox here: bwrap: No permissions to creating new namespace');
    expect(sessionFolders()).toEqual([]);
  });

  it("config.json's default for the kind refuses the same way; --no-sandbox starts it unsandboxed", async () => {
    fs.writeFileSync(path.join(cfg, 'config.json'), JSON.stringify({ sandbox: { kinds: { shell: { network: 'none' } } } }));
    const refused = await run(['new', '--', '/bin/sleep', '100'], { PATH: noBwrap });
    expect(refused.code).toBe(17);
    expect(sessionFolders()).toEqual([]);
    const plain = await run(['new', '--no-sandbox', '--name', 'plain', '--', '/bin/sleep', '100'], { PATH: noBwrap });
    expect(plain.code).toBe(0);
    const [s] = await listed();
    expect(s).toMatchObject({ name: 'plain' });
    expect(s!.sandbox).toBeUndefined();
  });

  it('off Linux: refused with the line that says bubblewrap is Linux\'s (exit 17)', async () => {
    const err = await requireSandbox({ backend: 'bwrap', network: 'none' }, os.tmpdir(), realScheduler(), process.env, 'darwin').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect(err).toMatchObject({ exitCode: 17, message: "cannot sandbox on darwin: agent-board sandboxes with bubblewrap, which is Linux's" });
  });

  it("a runner's own refusal (the record exited with no code and the line) is told apart from a program that ended", () => {
    const line = 'cannot sandbox: bubblewrap (bwrap) is not installed (apt-get install bubblewrap, dnf install bubblewrap)';
    const rec = { sandbox: { backend: 'bwrap' as const, network: 'none' as const }, status: 'exited' as const, exitCode: null, exitSignal: null, previewLine: line };
    expect(sandboxRefusal(rec)).toBe(line);
    expect(sandboxRefusal({ ...rec, exitCode: 1 })).toBeNull(); // the program ran and failed
    expect(sandboxRefusal({ ...rec, sandbox: undefined })).toBeNull();
    expect(sandboxRefusal({ ...rec, previewLine: 'cannot open file' })).toBeNull();
  });

  it('usage mistakes: --network without --sandbox, a bad network, a bad host (exit 2)', async () => {
    for (const args of [['--network', 'none'], ['--sandbox', '--network', 'some'], ['--sandbox', '--allow-host', 'https://x.com/'], ['--sandbox', 'docker']]) {
      const r = await run(['new', ...args, '--', '/bin/sleep', '100']);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(sessionFolders()).toEqual([]);
  });
});

describe.skipIf(!hasBwrap)('a sandboxed session kept and shown (bubblewrap here)', () => {
  it('ls shows it; fork, restart and revive refuse where it cannot be made, leaving it as it was', async () => {
    const made = await run(['new', '--sandbox', '--network', 'all', '--allow-host', 'example.com', '--deny-read', '/srv/keys', '--deny-read', '~/keys', '--name', 'boxed', '--', '/bin/sleep', '100']);
    expect(made.code, made.stderr).toBe(0);
    const [s] = await listed();
    expect(s!.sandbox).toEqual({ backend: 'bwrap', network: 'all', allowHosts: ['example.com'], denyRead: ['/srv/keys', path.join(os.homedir(), 'keys')] });
    const table = (await run(['ls'])).stdout;
    expect(table).toMatch(/SANDBOX/);
    expect(table).toMatch(/boxed .* bwrap\/all /);

    // explain says it, from the record its runner keeps.
    const explained = await run(['explain', 'boxed']);
    expect(explained.stdout).toMatch(/^sandbox {2}bubblewrap: the program and its children inside, the runner outside$/m);
    expect(explained.stdout).toMatch(/^network {2}all: the machine's network as it is$/m);
    // This machine's places: its folder writable first; its own hidden paths first, then the default list.
    expect(explained.stdout).toContain(`writes   ${process.cwd()}, `);
    expect(explained.stdout).toMatch(new RegExp(`^hidden {3}/srv/keys, ${os.homedir()}/keys, ${os.homedir()}/\\.ssh, ${os.homedir()}/\\.aws \\+\\d+ more`, 'm'));
    expect(JSON.parse((await run(['explain', 'boxed', '--json'])).stdout)).toMatchObject({ sandbox: s!.sandbox, sandboxDenied: [] });
    // The board's e asks the same of its actions: this machine's places.
    const prev = process.env.AGENT_BOARD_CONFIG_HOME;
    process.env.AGENT_BOARD_CONFIG_HOME = cfg;
    try {
      const board = createBoardActions(home, REAL_TIME).sandboxLines(listSessions(home)[0]!, Date.now());
      expect(board.find(([l]) => l === 'writes')![1]).toBe(`${process.cwd()}, ${path.join(home, 'rooms', 'default')}, its own /tmp`);
      expect(board.find(([l]) => l === 'hidden')![1]).toMatch(/^\/srv\/keys, /);
    } finally {
      if (prev === undefined) delete process.env.AGENT_BOARD_CONFIG_HOME;
      else process.env.AGENT_BOARD_CONFIG_HOME = prev;
    }

    const fork = await run(['fork', 'boxed'], { PATH: noBwrap });
    expect(fork.code).toBe(17);
    expect(fork.stderr).toContain('cannot sandbox: bubblewrap (bwrap) is not installed');
    expect((await listed()).map((x) => x.name)).toEqual(['boxed']);

    const restart = await run(['restart', 'boxed'], { PATH: noBwrap });
    expect(restart.code).toBe(17);
    const [still] = await listed();
    expect(still).toMatchObject({ status: 'running', childPid: s!.childPid });

    // Lost (its runner and program killed, as a reboot would): revive refuses too, and it stays lost.
    const rec = JSON.parse(fs.readFileSync(path.join(home, 'sessions', sessionFolders()[0]!, 'host.json'), 'utf8')) as { runnerPid: number; childPid: number };
    process.kill(rec.runnerPid, 'SIGKILL');
    process.kill(-rec.childPid, 'SIGKILL');
    await waitFor('boxed lost', async () => (await listed())[0]!.status === 'lost');
    // No runner to ask: explain still says its sandbox, from the record, and why it cannot say more (exit 5).
    const gone = await run(['explain', 'boxed']);
    expect(gone.code).toBe(5);
    expect(gone.stdout).toMatch(/^sandbox {2}bubblewrap: /m);
    expect(gone.stderr).toContain('boxed is lost');
    const revive = await run(['revive', 'boxed'], { PATH: noBwrap });
    expect(revive.code).toBe(17);
    expect(revive.stdout).toContain('boxed not revived: cannot sandbox: bubblewrap (bwrap) is not installed');
    expect((await listed())[0]!.status).toBe('lost');

    // Where it can be made, the fork keeps the source's sandbox.
    const revived = await run(['revive', 'boxed']);
    expect(revived.code, revived.stdout + revived.stderr).toBe(0);
    const forked = await run(['fork', 'boxed', '--name', 'boxed-2']);
    expect(forked.code, forked.stderr).toBe(0);
    const two = (await listed()).find((x) => x.name === 'boxed-2');
    expect(two!.sandbox).toEqual(s!.sandbox);
  });
});
