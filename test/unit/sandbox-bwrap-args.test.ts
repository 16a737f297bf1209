/**
 * The sandbox's bwrap command (src/core/sandbox/bwrap-args.ts, sandbox-mounts.ts): the order of
 * its mounts is what makes a hidden folder's child visible again and a private /tmp hold the
 * binds under it; a wrong order silently hides the work or shows a secret.
 */
import { describe, expect, it } from 'vitest';
import { bwrapCommand, type SandboxPlanInput } from '../../src/core/sandbox/bwrap-args.js';
import { orderMounts, type PathType } from '../../src/core/sandbox/sandbox-mounts.js';
import { deniedPaths } from '../../src/core/sandbox/deny-list.js';
import { agentStateDir, otherAgentStateDirs } from '../../src/core/sandbox/agent-state-dirs.js';
import { argsInSandbox, claudeConfigDir } from '../../src/core/sandbox/kind-in-sandbox.js';

function typeOfFrom(files: string[], dirs: string[]): (p: string) => PathType {
  return (p) => (dirs.includes(p) ? 'dir' : files.includes(p) ? 'file' : null);
}

const BASE: SandboxPlanInput = {
  bwrap: '/usr/bin/bwrap',
  command: 'claude',
  args: ['--session-id', 'x'],
  cwd: '/home/u/proj',
  userHome: '/home/u',
  boardHome: '/home/u/.agent-board',
  sessionDir: '/home/u/.agent-board/sessions/s1',
  socketPath: '/home/u/.agent-board/sessions/s1/runner.sock',
  roomDir: '/home/u/.agent-board/rooms/main',
  stateDir: '/home/u/.claude',
  git: null,
  denied: ['/home/u/.ssh', '/home/u/.netrc', '/home/u/.aws'],
  runtimeDir: '/run/user/1000',
  network: 'none',
  proxy: null,
  typeOf: typeOfFrom(
    ['/home/u/.netrc', '/home/u/.agent-board/sessions/s1/runner.sock'],
    ['/home/u/proj', '/home/u', '/home/u/.agent-board', '/home/u/.agent-board/sessions/s1', '/home/u/.agent-board/rooms/main', '/home/u/.claude', '/home/u/.ssh', '/run/user/1000'],
  ),
};

describe('the sandbox command', () => {
  it('hides agent-board\'s home, then binds the session\'s own folder, socket and room back; a file is hidden with /dev/null, a missing path not at all', () => {
    const c = bwrapCommand(BASE);
    expect(c.command).toBe('env');
    expect(c.args).toEqual([
      '--ignore-signal=INT,QUIT,TERM,HUP', '/usr/bin/bwrap',
      '--unshare-user', '--disable-userns', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try', '--unshare-net',
      '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp',
      '--perms', '0700', '--tmpfs', '/home/u/.ssh',
      '--ro-bind', '/dev/null', '/home/u/.netrc',
      '--perms', '0700', '--tmpfs', '/home/u/.agent-board',
      '--perms', '0700', '--tmpfs', '/run/user/1000',
      '--bind', '/home/u/.claude', '/home/u/.claude',
      '--bind', '/home/u/proj', '/home/u/proj',
      '--ro-bind', '/home/u/.agent-board/sessions/s1', '/home/u/.agent-board/sessions/s1',
      '--bind', '/home/u/.agent-board/rooms/main', '/home/u/.agent-board/rooms/main',
      '--ro-bind', '/home/u/.agent-board/sessions/s1/runner.sock', '/home/u/.agent-board/sessions/s1/runner.sock',
      '--remount-ro', '/home/u/.ssh', '--remount-ro', '/home/u/.agent-board', '--remount-ro', '/run/user/1000',
      '--chdir', '/home/u/proj', '--',
      'env', '--default-signal=INT,QUIT,TERM,HUP', 'claude', '--session-id', 'x',
    ]);
  });

  it("binds agent-board's own package folder back when it lies under /tmp (a clone there): its hooks and chat commands run inside", () => {
    const c = bwrapCommand({ ...BASE, toolRoots: ['/tmp/clone', '/usr'], typeOf: typeOfFrom([], ['/tmp/clone', '/usr']) });
    const a = c.args;
    const at = a.indexOf('/tmp/clone');
    expect(a.slice(at - 1, at + 2)).toEqual(['--ro-bind', '/tmp/clone', '/tmp/clone']);
    expect(at).toBeGreaterThan(a.indexOf('--tmpfs'));
    expect(a).not.toContain('/usr');
  });

  it('binds a home, a session and a socket under /tmp after the private /tmp is made, so they are seen inside it', () => {
    const t = '/tmp/t1';
    const c = bwrapCommand({
      ...BASE, network: 'all', cwd: `${t}/wt`, userHome: `${t}/home`, boardHome: `${t}/ab`, sessionDir: `${t}/ab/sessions/s1`,
      socketPath: `${t}/ab/sessions/s1/runner.sock`, roomDir: `${t}/ab/rooms/main`, stateDir: null, denied: [`${t}/home/.ssh`], runtimeDir: null,
      typeOf: typeOfFrom([`${t}/ab/sessions/s1/runner.sock`], [`${t}/wt`, `${t}/home`, `${t}/ab`, `${t}/ab/sessions/s1`, `${t}/ab/rooms/main`, `${t}/home/.ssh`]),
    });
    const a = c.args;
    expect(a).not.toContain('--unshare-net');
    const tmp = a.indexOf('/tmp', a.indexOf('--tmpfs'));
    expect(a.slice(tmp + 1, a.indexOf('--chdir'))).toEqual([
      '--ro-bind', `${t}/home`, `${t}/home`,
      '--perms', '0700', '--tmpfs', `${t}/ab`,
      '--bind', `${t}/wt`, `${t}/wt`,
      '--perms', '0700', '--tmpfs', `${t}/home/.ssh`,
      '--ro-bind', `${t}/ab/sessions/s1`, `${t}/ab/sessions/s1`,
      '--bind', `${t}/ab/rooms/main`, `${t}/ab/rooms/main`,
      '--ro-bind', `${t}/ab/sessions/s1/runner.sock`, `${t}/ab/sessions/s1/runner.sock`,
      '--remount-ro', `${t}/ab`, '--remount-ro', `${t}/home/.ssh`,
    ]);
  });

  it('a worktree: its .git file, the other branches and the admin files read-only inside the writable folders; the proxy bridge before the program', () => {
    const g = '/r/.git';
     const dirs = ['/h/.agent-board', '/h/.agent-board/sessions/s1', '/w', `${g}/worktrees/w`, `${g}/refs/heads`, `${g}/logs/refs/heads`, '/h/.agent-board/sessions/s1/objects'];
    const files = [`/w/.git`, `${g}/worktrees/w/commondir`, `${g}/worktrees/w/gitdir`, `${g}/refs/heads/main`, `${g}/logs/refs/heads/main`, '/run/p.sock'];
    const c = bwrapCommand({
      ...BASE, cwd: '/w', userHome: '/h', boardHome: '/h/.agent-board', sessionDir: '/h/.agent-board/sessions/s1', socketPath: '/h/.agent-board/sessions/s1/runner.sock',
      roomDir: '/h/.agent-board/rooms/main', stateDir: null, denied: [], runtimeDir: null, network: 'allowlist',
      proxy: { socketPath: '/run/p.sock', bridge: ['sh', '-c', 'bridge', 'x'] },
      git: { commonDir: g, adminDir: `${g}/worktrees/w`, adminFixed: [`${g}/worktrees/w/commondir`, `${g}/worktrees/w/gitdir`], dotGit: '/w/.git', refDirs: [`${g}/refs/heads`, `${g}/logs/refs/heads`], pinned: [`${g}/refs/heads/main`, `${g}/logs/refs/heads/main`], objectDir: '/h/.agent-board/sessions/s1/objects' },
      typeOf: typeOfFrom(files, dirs),
    });
    const a = c.args;
    expect(a.slice(a.indexOf('/tmp', a.indexOf('--tmpfs')) + 1)).toEqual([
      '--bind', '/w', '/w',
      '--perms', '0700', '--tmpfs', '/h/.agent-board',
      '--bind', '/run/p.sock', '/run/p.sock',
      '--ro-bind', '/w/.git', '/w/.git',
      '--ro-bind', '/h/.agent-board/sessions/s1', '/h/.agent-board/sessions/s1',
      '--bind', `${g}/worktrees/w`, `${g}/worktrees/w`,
      '--bind', `${g}/refs/heads`, `${g}/refs/heads`,
      '--bind', `${g}/logs/refs/heads`, `${g}/logs/refs/heads`,
      '--bind', '/h/.agent-board/sessions/s1/objects', '/h/.agent-board/sessions/s1/objects',
      '--ro-bind', `${g}/worktrees/w/commondir`, `${g}/worktrees/w/commondir`,
      '--ro-bind', `${g}/worktrees/w/gitdir`, `${g}/worktrees/w/gitdir`,
      '--ro-bind', `${g}/refs/heads/main`, `${g}/refs/heads/main`,
      '--ro-bind', `${g}/logs/refs/heads/main`, `${g}/logs/refs/heads/main`,
      '--remount-ro', '/h/.agent-board',
      '--chdir', '/w', '--',
      'env', '--default-signal=INT,QUIT,TERM,HUP', 'sh', '-c', 'bridge', 'x', 'claude', '--session-id', 'x',
    ]);
  });

  it('keeps the later of two ops at one path, and the order given at one depth', () => {
    const t = typeOfFrom([], ['/a', '/b', '/a/c']);
    expect(orderMounts([{ kind: 'hide', path: '/a/c' }, { kind: 'ro', path: '/b' }, { kind: 'hide', path: '/a' }, { kind: 'rw', path: '/a/c' }], t).map((o) => `${o.kind} ${o.path}`))
      .toEqual(['ro /b', 'hide /a', 'rw /a/c']);
  });
});

describe('what is denied', () => {
  it('the keys and credentials under $HOME, docker\'s socket and the extra paths, never a folder that holds the work', () => {
    const d = deniedPaths('/h', ['~/secrets', '/srv/keys/../keys2', '/h/proj', 'relative'], '/h/proj/sub');
    expect(d).toContain('/h/.ssh');
    expect(d).toContain('/h/.config/gcloud');
    expect(d).toContain('/var/run/docker.sock');
    expect(d).toContain('/h/secrets');
    expect(d).toContain('/srv/keys2');
    expect(d).not.toContain('/h/proj');
    expect(d.some((p) => !p.startsWith('/'))).toBe(false);
  });

  it('each kind\'s state folder, with its environment override; the other kinds\' are the rest', () => {
    expect(agentStateDir('claude', '/h', {})).toBe('/h/.claude');
    expect(agentStateDir('claude', '/h', { CLAUDE_CONFIG_DIR: '/c' })).toBe('/c');
    expect(agentStateDir('gemini', '/h', { GEMINI_CLI_HOME: '/g' })).toBe('/g/.gemini');
    expect(agentStateDir('shell', '/h', {})).toBeNull();
    expect(otherAgentStateDirs('codex', '/h', {}).sort()).toEqual(['/h/.claude', '/h/.gemini', '/h/.pi/agent']);
  });
});

describe('a kind inside the sandbox', () => {
  it('Codex gets its own sandbox turned off, unless the user chose one', () => {
    expect(argsInSandbox('codex', ['resume', 'x'])).toEqual(['--sandbox', 'danger-full-access', 'resume', 'x']);
    expect(argsInSandbox('codex', ['-s', 'read-only'])).toEqual(['-s', 'read-only']);
    expect(argsInSandbox('codex', ['--sandbox=workspace-write'])).toEqual(['--sandbox=workspace-write']);
    expect(argsInSandbox('codex', ['--dangerously-bypass-approvals-and-sandbox'])).toEqual(['--dangerously-bypass-approvals-and-sandbox']);
    expect(argsInSandbox('claude', ['--resume', 'x'])).toEqual(['--resume', 'x']);
  });

  it('Claude keeps its config file in CLAUDE_CONFIG_DIR: the user\'s, else ~/.claude', () => {
    expect(claudeConfigDir({}, '/h')).toEqual({ dir: '/h/.claude', given: false });
    expect(claudeConfigDir({ CLAUDE_CONFIG_DIR: '/c' }, '/h')).toEqual({ dir: '/c', given: true });
  });
});
