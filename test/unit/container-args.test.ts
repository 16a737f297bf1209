/**
 * The container backend's argv (src/core/sandbox/container-args.ts), exactly: what podman and
 * docker are told decides what the program can touch, so every flag is asserted.
 */
import { describe, expect, it } from 'vitest';
import { containerArgs, containerEnv, type ContainerRun } from '../../src/core/sandbox/container-args.js';
import { containerMounts, type ContainerPlaces } from '../../src/core/sandbox/container-mounts.js';

const base: ContainerRun = {
  engine: 'podman',
  uid: 1000,
  gid: 1000,
  root: { image: 'mcr.microsoft.com/devcontainers/typescript-node:20' },
  name: 'agent-board-ab12',
  cwd: '/home/u/repo-wt/ab12',
  home: '/home/u',
  mounts: [
    { kind: 'ro', path: '/home/u/.agent-board/sessions/ab12' },
    { kind: 'rw', path: '/home/u/repo-wt/ab12' },
    { kind: 'rw', path: '/home/u/.claude' },
  ],
  envNames: ['HOME', 'TERM', 'ANTHROPIC_API_KEY'],
  network: 'none',
  command: ['claude', '--resume', 'x'],
};

const args = (r: ContainerRun) => {
  const a = containerArgs(r);
  if (!a.ok) throw new Error(a.line);
  return a.args;
};

describe('containerArgs', () => {
  it('rootless podman: keep-id, no detach keys, no network, the home a private tmpfs, mounts at the same paths by depth', () => {
    expect(args(base)).toEqual([
      'run', '--rm', '-i', '-t', '--init', '--name', 'agent-board-ab12',
      '--detach-keys=', '--userns=keep-id',
      '--cap-drop=all', '--security-opt=no-new-privileges', '--network=none',
      '--mount', 'type=tmpfs,destination=/home/u,tmpfs-mode=1777',
      '-v', '/home/u/.claude:/home/u/.claude',
      '-v', '/home/u/repo-wt/ab12:/home/u/repo-wt/ab12',
      '-v', '/home/u/.agent-board/sessions/ab12:/home/u/.agent-board/sessions/ab12:ro',
      '-w', '/home/u/repo-wt/ab12',
      '--env', 'HOME', '--env', 'TERM', '--env', 'ANTHROPIC_API_KEY',
      'mcr.microsoft.com/devcontainers/typescript-node:20',
      'claude', '--resume', 'x',
    ]);
  });

  it("root's podman runs as root: no user namespace flag", () => {
    const a = args({ ...base, uid: 0, gid: 0 });
    expect(a).not.toContain('--userns=keep-id');
    expect(a).not.toContain('--user');
  });

  it("docker: the user's uid:gid (its daemon is root), no podman-only flags", () => {
    const a = args({ ...base, engine: 'docker', uid: 1000, gid: 100 });
    expect(a.slice(0, 10)).toEqual(['run', '--rm', '-i', '-t', '--init', '--name', 'agent-board-ab12', '--user', '1000:100', '--cap-drop=all']);
    expect(a).not.toContain('--detach-keys=');
    expect(a).not.toContain('--userns=keep-id');
  });

  it("network all is the host's, allowlist is none (its way out is the proxy socket mounted in)", () => {
    expect(args({ ...base, network: 'all' })).toContain('--network=host');
    expect(args({ ...base, network: 'allowlist' })).toContain('--network=none');
  });

  it('a hidden folder is an empty tmpfs, a hidden file /dev/null, each after its parent mount', () => {
    const a = args({ ...base, mounts: [{ kind: 'hide', path: '/home/u/repo-wt/ab12/secrets', dir: true }, { kind: 'hide', path: '/home/u/repo-wt/ab12/.env', dir: false }, { kind: 'rw', path: '/home/u/repo-wt/ab12' }] });
    const from = a.indexOf('-v');
    expect(a.slice(from, from + 6)).toEqual(['-v', '/home/u/repo-wt/ab12:/home/u/repo-wt/ab12', '--mount', 'type=tmpfs,destination=/home/u/repo-wt/ab12/secrets', '-v', '/dev/null:/home/u/repo-wt/ab12/.env:ro']);
  });

  it('a session in the home folder itself: the home is the mount, no tmpfs over it', () => {
    const a = args({ ...base, cwd: '/home/u', mounts: [{ kind: 'rw', path: '/home/u' }] });
    expect(a.join(' ')).not.toContain('type=tmpfs,destination=/home/u,');
    expect(a).toContain('/home/u:/home/u');
  });

  it('podman with a folder as the root: --rootfs in place of the image', () => {
    const a = args({ ...base, root: { rootfs: '/srv/rootfs' }, command: ['sh'] });
    expect(a.slice(-3)).toEqual(['--rootfs', '/srv/rootfs', 'sh']);
  });

  it('refuses in one line what it cannot say: a path with a colon, docker with a rootfs, no program', () => {
    expect(containerArgs({ ...base, cwd: '/home/u/a:b', mounts: [] })).toEqual({ ok: false, line: "cannot sandbox in a container: /home/u/a:b holds a ':' or ',' (podman and docker split mount options on them)" });
    expect(containerArgs({ ...base, engine: 'docker', root: { rootfs: '/srv/rootfs' } })).toEqual({ ok: false, line: 'cannot sandbox in a container: only podman runs a folder as the root (--rootfs); docker needs an image' });
    expect(containerArgs({ ...base, command: [] })).toEqual({ ok: false, line: 'cannot sandbox in a container: no program to run' });
    expect(containerArgs({ ...base, mounts: [{ kind: 'rw', path: 'rel/dir' }] })).toEqual({ ok: false, line: 'cannot sandbox in a container: rel/dir is not an absolute path' });
  });
});

describe('containerEnv', () => {
  it("drops the agents' and the host's own variables, sets HOME, keeps the rest", () => {
    const env = containerEnv({ PATH: '/usr/bin', HOME: '/root', SSH_AUTH_SOCK: '/run/ssh', GPG_AGENT_INFO: 'x', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/bus', XDG_RUNTIME_DIR: '/run/user/0', PWD: '/root', _: '/usr/bin/node', TERM: 'xterm-256color', ANTHROPIC_API_KEY: 'k', AGENT_BOARD_SESSION: 'ab12', GONE: undefined }, '/home/u');
    expect(env).toEqual({ TERM: 'xterm-256color', ANTHROPIC_API_KEY: 'k', AGENT_BOARD_SESSION: 'ab12', HOME: '/home/u' });
  });
});

describe('containerMounts', () => {
  const places: ContainerPlaces = {
    cwd: '/w/wt1',
    sessionDir: '/h/.agent-board/sessions/ab12',
    socketPath: '/h/.agent-board/sessions/ab12/sock',
    roomDir: '/h/.agent-board/rooms/r1',
    stateDir: '/h/.claude',
    git: {
      commonDir: '/w/repo/.git',
      adminDir: '/w/repo/.git/worktrees/wt1',
      adminFixed: ['/w/repo/.git/worktrees/wt1/commondir', '/w/repo/.git/worktrees/wt1/gitdir'],
      dotGit: '/w/wt1/.git',
      refDirs: ['/w/repo/.git/refs/heads', '/w/repo/.git/logs/refs/heads'],
      pinned: ['/w/repo/.git/refs/heads/main', '/w/repo/.git/logs/refs/heads/main'],
      objectDir: '/h/.agent-board/sessions/ab12/objects',
    },
    denied: ['/h/.ssh', '/w/wt1/secrets', '/w/wt1/.env'],
    proxySocket: null,
  };
  const folders = new Set(['/w/wt1', '/h/.agent-board/sessions/ab12', '/h/.agent-board/rooms/r1', '/h/.claude', '/w/repo/.git', '/w/repo/.git/worktrees/wt1', '/w/repo/.git/refs/heads', '/w/repo/.git/logs/refs/heads', '/h/.agent-board/sessions/ab12/objects', '/w/wt1/secrets']);
  const files = new Set(['/w/wt1/.git', '/w/repo/.git/worktrees/wt1/commondir', '/w/repo/.git/worktrees/wt1/gitdir', '/w/repo/.git/refs/heads/main', '/w/repo/.git/logs/refs/heads/main', '/h/.agent-board/sessions/ab12/sock']);
  const typeOf = (p: string) => (folders.has(p) ? 'dir' : files.has(p) ? 'file' : null);

  it("the worktree, state, room writable; the session folder read-only; git's common folder read-only with the branch's pieces over it; a denied path inside hidden", () => {
    const a = args({ ...base, cwd: '/w/wt1', home: '/h', mounts: containerMounts(places, typeOf) });
    const from = a.indexOf('--mount');
    expect(a.slice(from, a.indexOf('-w'))).toEqual([
      '--mount', 'type=tmpfs,destination=/h,tmpfs-mode=1777',
      '-v', '/h/.claude:/h/.claude',
      '-v', '/w/wt1:/w/wt1',
      '-v', '/w/repo/.git:/w/repo/.git:ro',
      '-v', '/w/wt1/.git:/w/wt1/.git:ro',
      '--mount', 'type=tmpfs,destination=/w/wt1/secrets',
      '-v', '/h/.agent-board/sessions/ab12:/h/.agent-board/sessions/ab12:ro',
      '-v', '/h/.agent-board/rooms/r1:/h/.agent-board/rooms/r1',
      '-v', '/w/repo/.git/worktrees/wt1:/w/repo/.git/worktrees/wt1',
      '-v', '/w/repo/.git/refs/heads:/w/repo/.git/refs/heads',
      '-v', '/h/.agent-board/sessions/ab12/objects:/h/.agent-board/sessions/ab12/objects',
      '-v', '/w/repo/.git/logs/refs/heads:/w/repo/.git/logs/refs/heads',
      '-v', '/w/repo/.git/worktrees/wt1/commondir:/w/repo/.git/worktrees/wt1/commondir:ro',
      '-v', '/w/repo/.git/worktrees/wt1/gitdir:/w/repo/.git/worktrees/wt1/gitdir:ro',
      '-v', '/w/repo/.git/refs/heads/main:/w/repo/.git/refs/heads/main:ro',
      '-v', '/w/repo/.git/logs/refs/heads/main:/w/repo/.git/logs/refs/heads/main:ro',
    ]);
  });

  it("a socket outside the session folder and the proxy's socket come in read-only (connecting needs no write); a path not on the host is left out", () => {
    const m = containerMounts({ ...places, git: null, socketPath: '/run/ab/sock', proxySocket: '/tmp/proxy.sock', roomDir: '/nowhere' }, (p) => (p.endsWith('sock') ? 'file' : folders.has(p) ? 'dir' : null));
    expect(m).toContainEqual({ kind: 'ro', path: '/run/ab/sock' });
    expect(m).toContainEqual({ kind: 'ro', path: '/tmp/proxy.sock' });
    expect(m.map((x) => x.path)).not.toContain('/nowhere');
    expect(m.map((x) => x.path)).not.toContain('/h/.ssh');
  });
});
