/**
 * Tried as an attacker would (docs/sandbox.md): a sandboxed session's program, a small sh script
 * on a real runner, tries to reach outside its worktree, its secrets, other branches, the
 * network, other processes and the user's bus. Each test fails without the sandbox
 * (AGENT_BOARD_TEST_NO_SANDBOX=1, sandbox-rig.ts).
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/home.js';
import { readHost } from '../helpers/control.js';
import { SandboxRig } from './sandbox-rig.js';
import { sh } from './worktree-new-helpers.js';

/** The screen's lines joined: a long message wraps at the session's width. */
const flat = (screen: string) => screen.replace(/\n/g, '');

let rig: SandboxRig;
beforeAll(() => {
  rig = new SandboxRig();
});
afterAll(() => rig.dispose());

describe('writing outside the worktree', () => {
  const ways: Array<[string, (out: string) => string]> = [
    ['directly', (out) => `echo x > ${out}/direct`],
    ['through a symlink', (out) => `ln -s ${out} link && echo x > link/via-link`],
    ['through ..', () => 'echo x > ../outside/via-dotdot'],
    ['through /proc/self/root', (out) => `echo x > /proc/self/root${out}/via-proc`],
  ];
  it.each(ways)('%s is refused', async (_name, attack) => {
    const w = rig.worktree();
    const before = fs.readdirSync(rig.outside);
    const { screen } = await rig.run(`${attack(rig.outside)}; echo "rc=$?"`, { worktree: w });
    expect(flat(screen)).toContain('Read-only file system');
    expect(fs.readdirSync(rig.outside)).toEqual(before);
  });
});

it('reading the home\'s ssh key finds nothing', async () => {
  const { screen } = await rig.run(`cat "$HOME/.ssh/id_ed25519"; echo "rc=$?"`);
  expect(screen).toContain('rc=1');
  expect(screen).not.toContain('SECRET-KEY');
});

describe('git in a worktree session', () => {
  const mainAt = () => sh(rig.repo, 'rev-parse', 'main').trim();

  it('git update-ref cannot move main', async () => {
    const main = mainAt();
    const { screen } = await rig.run('git commit -q --allow-empty -m evil && git update-ref refs/heads/main HEAD; echo "rc=$?"', { worktree: rig.worktree() });
    expect(screen).toContain('rc=128');
    expect(mainAt()).toBe(main);
  });

  it('git push . HEAD:main cannot move main, nor another branch', async () => {
    const main = mainAt();
    const other = sh(rig.repo, 'rev-parse', 'other').trim();
    const { screen } = await rig.run('git commit -q --allow-empty -m evil && git push -q . HEAD:main HEAD:other; echo "rc=$?"', { worktree: rig.worktree() });
    expect(screen).toMatch(/rc=[1-9]/);
    expect(mainAt()).toBe(main);
    expect(sh(rig.repo, 'rev-parse', 'other').trim()).toBe(other);
  });

  it('git commit on the session\'s own branch works, and the commit stays in the repository after the program and after rm', async () => {
    const w = rig.worktree();
    const { screen, rec } = await rig.run('echo made-inside > inside.txt && git add inside.txt && git commit -q -m "sandboxed commit" && echo COMMITTED', { worktree: w });
    expect(screen).toContain('COMMITTED');
    expect(sh(rig.repo, 'log', '-1', '--format=%s', w.branch).trim()).toBe('sandboxed commit');
    // The session's objects were moved into the repository's own store: nothing points at the session's folder.
    const alternates = path.join(rig.repo, '.git', 'objects', 'info', 'alternates');
    expect(fs.existsSync(alternates) ? fs.readFileSync(alternates, 'utf8') : '').not.toContain(rec.id);
    expect(cli(rig.board, ['diff', rec.id, '--stat']).stdout).toContain('inside.txt');
    const rm = cli(rig.board, ['rm', rec.id]);
    expect(rm.code).toBe(0);
    expect(sh(rig.repo, 'show', `${w.branch}:inside.txt`)).toBe('made-inside\n');
    expect(sh(rig.repo, 'fsck', '--connectivity-only', '--no-dangling')).toBe('');
  });

  it('merge brings the session\'s commits into main while it still runs (the repository reads them through its alternates)', async () => {
    const w = rig.worktree();
    const rec = await rig.start('echo merged-in > merged.txt && git add merged.txt && git commit -q -m "to merge" && echo COMMITTED; sleep 30', { worktree: w });
    await rig.waitScreen(rec.id, 'COMMITTED');
    const r = cli(rig.board, ['merge', rec.id]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^fast-forwarded main to sess-\d+ \(1 commit\)/);
    expect(fs.readFileSync(path.join(rig.repo, 'merged.txt'), 'utf8')).toBe('merged-in\n');
    cli(rig.board, ['kill', rec.id]);
    await rig.exited(rec.id);
    expect(sh(rig.repo, 'fsck', '--connectivity-only', '--no-dangling')).toBe('');
  });
});

it('its own host.json cannot be rewritten to drop the sandbox', async () => {
  const rec = await rig.start('sleep 1; f="$AGENT_BOARD_HOME/sessions/$AGENT_BOARD_SESSION/host.json"; echo "{}" > "$f"; echo "rc=$?"; rm -f "$f"; echo "rm=$?"');
  const done = await rig.exited(rec.id);
  const screen = flat(rig.screen(rec.id));
  expect(screen).toContain('Read-only file system');
  expect(screen).toContain('rm=1');
  expect(done.sandbox).toEqual({ backend: 'bwrap', network: 'none' });
});

it('a loopback port listening on the host cannot be reached (network none)', async () => {
  let connections = 0;
  const server = net.createServer((s) => {
    connections++;
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  try {
    const { screen } = await rig.run(`/usr/bin/python3 -c "import socket; socket.create_connection(('127.0.0.1', ${port}), 3); print('CONNECTED')" 2>&1 | tail -1; echo done`);
    expect(screen).not.toContain('CONNECTED');
    expect(screen).toContain('ConnectionRefusedError');
    expect(connections).toBe(0);
  } finally {
    server.close();
  }
});

describe('other processes', () => {
  let victim: number;
  let victimId: string;
  beforeAll(async () => {
    const v = await rig.start('sleep 600', { sandbox: null });
    victimId = v.id;
    await new Promise((r) => setTimeout(r, 300));
    victim = readHost(rig.board, v.id).childPid!;
  });
  afterAll(() => {
    cli(rig.board, ['kill', victimId]);
  });
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('the runner and another session\'s program cannot be killed', async () => {
    const rec = await rig.start(`sleep 1; r=$(sed -n 's/.*"runnerPid": *\\([0-9]*\\).*/\\1/p' "$AGENT_BOARD_HOME/sessions/$AGENT_BOARD_SESSION/host.json"); echo "runner=$r"; kill -9 "$r" ${victim}; echo "rc=$?"`);
    const done = await rig.exited(rec.id);
    const screen = rig.screen(rec.id);
    expect(screen).toMatch(/runner=\d+/);
    expect(screen).toContain('No such process');
    // The runner lived to write the program's exit; the other program still runs.
    expect(done.exitCode).toBe(0);
    expect(alive(victim)).toBe(true);
  });

  it('a process outside cannot be ptraced', async () => {
    const { screen } = await rig.run(`/usr/bin/python3 -c "import ctypes, os; l = ctypes.CDLL(None, use_errno=True); r = l.ptrace(16, ${victim}, 0, 0); print('PTRACE', r, os.strerror(ctypes.get_errno()))"`);
    expect(screen).toContain('PTRACE -1 No such process');
    expect(fs.readFileSync(`/proc/${victim}/stat`, 'utf8').split(' ')[2]).not.toBe('t');
  });
});

it('the user\'s runtime folder (systemd --user, D-Bus) cannot be reached', async () => {
  let connections = 0;
  const bus = net.createServer((s) => {
    connections++;
    s.destroy();
  });
  const sock = path.join(rig.runtime, 'bus');
  await new Promise<void>((r) => bus.listen(sock, r));
  try {
    const { screen } = await rig.run(`/usr/bin/python3 -c "import socket, os; s = socket.socket(socket.AF_UNIX); s.connect(os.environ['XDG_RUNTIME_DIR'] + '/bus'); print('BUS-CONNECTED')" 2>&1 | tail -1; ls "$XDG_RUNTIME_DIR"; echo "listed=$?"`);
    expect(screen).not.toContain('BUS-CONNECTED');
    expect(screen).toContain('FileNotFoundError');
    expect(connections).toBe(0);
  } finally {
    bus.close();
  }
});

it('a Claude session writes its own state folder, finds ~/.claude.json seeded there, and cannot read Codex\'s', async () => {
  fs.writeFileSync(path.join(rig.home, '.claude.json'), '{"seededFrom":"home"}\n');
  fs.mkdirSync(path.join(rig.home, '.codex'), { recursive: true });
  fs.writeFileSync(path.join(rig.home, '.codex', 'auth.json'), 'SECRET-CODEX-TOKEN\n');
  const { screen } = await rig.run('echo "dir=$CLAUDE_CONFIG_DIR"; cat "$CLAUDE_CONFIG_DIR/.claude.json"; echo kept > "$CLAUDE_CONFIG_DIR/state-test" && echo WROTE-STATE; cat "$HOME/.codex/auth.json"; echo END', { agent: 'claude' });
  const text = flat(screen);
  expect(text).toContain(`dir=${path.join(rig.home, '.claude')}`);
  expect(text).toContain('seededFrom');
  expect(text).toContain('WROTE-STATE');
  expect(text).not.toContain('SECRET-CODEX');
  expect(fs.readFileSync(path.join(rig.home, '.claude', 'state-test'), 'utf8')).toBe('kept\n');
});
