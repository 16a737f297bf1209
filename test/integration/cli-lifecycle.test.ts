import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPidAlive } from '../../src/state/host-store.js';
import { cli, destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';

let home: string;
beforeEach(() => {
  home = makeHome();
});
afterEach(() => destroyHome(home));

interface LsRow { id: string; name: string; status: string; state: string; runnerPid: number; childPid: number | null; exitCode: number | null; cols: number; rows: number }
const ls = (): LsRow[] => JSON.parse(cli(home, ['ls', '--json']).stdout) as LsRow[];
const peek = (ref: string, extra: string[] = []) => cli(home, ['peek', ref, ...extra]);

describe('session lifecycle through the CLI', () => {
  it('new prints an id, ls lists it running, peek shows what it printed', async () => {
    const id = newSession(home, ['--name', 'one', '--', 'sh', '-c', 'echo ready-$((6*7)); exec sleep 60']);
    expect(id).toMatch(/^[0-9a-f]{8}$/);
    const rows = ls();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id, name: 'one', status: 'running' });
    expect(['starting', 'busy', 'idle']).toContain(rows[0]!.state);
    await waitFor('output', () => peek('one').stdout.includes('ready-42'));
    const human = cli(home, ['ls']).stdout;
    expect(human).toMatch(/ID\s+NAME\s+AGENT\s+STATUS/);
    expect(human).toContain('one');
    // A shell's activity comes from its bytes: idle once it has been quiet for 2 s. STATUS shows the state.
    await waitFor('idle', () => ls()[0]?.state === 'idle', 10_000);
    expect(ls()[0]).toMatchObject({ status: 'running', state: 'idle', activity: 'idle', activitySource: 'bytes' });
    expect(cli(home, ['ls']).stdout).toMatch(new RegExp(`${id}\\s+one\\s+shell\\s+idle\\s`));
  });

  it('a session id, name or unique prefix all find it; unknown and ambiguous say so with distinct exit codes', () => {
    const a = newSession(home, ['--name', 'alpha', '--', 'sleep', '60']);
    newSession(home, ['--name', 'alps', '--', 'sleep', '60']);
    expect(peek(a).code).toBe(0);
    expect(peek('alpha').code).toBe(0);
    expect(peek('alph').code).toBe(0);
    const amb = peek('al');
    expect(amb.code).toBe(4);
    expect(amb.stderr.trim().split('\n')).toHaveLength(1);
    expect(amb.stderr).toMatch(/matches 2 sessions/);
    const unknown = peek('zeta');
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/no session "zeta"/);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('an exited session keeps its last screen and exit code until rm', async () => {
    newSession(home, ['--name', 'brief', '--', 'sh', '-c', 'echo last-words; exit 3']);
    await waitFor('exit', () => ls()[0]?.status === 'exited');
    expect(ls()[0]).toMatchObject({ exitCode: 3, childPid: null, state: 'exited' });
    expect(peek('brief').stdout).toContain('last-words');
    expect(cli(home, ['ls']).stdout).toContain('exited(3)');
    const rm = cli(home, ['rm', 'brief']);
    expect(rm.code).toBe(0);
    expect(ls()).toHaveLength(0);
  });

  it('kill ends the program (SIGTERM, then SIGKILL for one that ignores it)', async () => {
    newSession(home, ['--name', 'stubborn', '--', 'sh', '-c', "trap '' TERM HUP; echo armed; while :; do sleep 1; done"]);
    await waitFor('armed', () => peek('stubborn').stdout.includes('armed'));
    const started = Date.now();
    const r = cli(home, ['kill', 'stubborn']);
    expect(r.code).toBe(0);
    // Asked for: a kill, not a failure, in kill's own line, ls and host.json.
    expect(r.stdout).toMatch(/^stubborn killed \(SIGKILL\)$/m);
    expect(Date.now() - started).toBeGreaterThan(3500); // the 4 s grace was given
    expect(ls()[0]).toMatchObject({ status: 'exited', exitSignal: 'SIGKILL', killed: 'SIGTERM' });
    expect(cli(home, ['ls']).stdout).toContain('killed(SIGKILL)');
    expect(cli(home, ['kill', 'stubborn']).stdout).toMatch(/^stubborn already killed \(SIGKILL\)$/m);
  });

  it('a program that dies of a signal nobody asked for is a failure, not a kill', async () => {
    newSession(home, ['--name', 'crash', '--', 'sh', '-c', 'echo armed; sleep 0.3; kill -SEGV $$']);
    await waitFor('exit', () => ls()[0]?.status === 'exited');
    expect(ls()[0]).toMatchObject({ exitSignal: 'SIGSEGV' });
    expect(ls()[0]).not.toHaveProperty('killed');
    expect(cli(home, ['ls']).stdout).toContain('exited(SIGSEGV)');
  });

  it('kill --signal sends just that signal', async () => {
    newSession(home, ['--name', 'polite', '--', 'sh', '-c', "trap 'echo got-usr1' USR1; echo armed; while :; do sleep 0.1; done"]);
    await waitFor('armed', () => peek('polite').stdout.includes('armed'));
    const r = cli(home, ['kill', 'polite', '--signal', 'USR1']);
    expect(r.code).toBe(0);
    await waitFor('trap', () => peek('polite').stdout.includes('got-usr1'));
    expect(ls()[0]?.status).toBe('running');
    const bad = cli(home, ['kill', 'polite', '--signal', 'NOPE']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/unknown signal/);
  });

  it('rm refuses a running session without --force, and --force ends it', () => {
    newSession(home, ['--name', 'busy', '--', 'sleep', '60']);
    const refused = cli(home, ['rm', 'busy']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/still running/);
    const [row] = ls();
    expect(cli(home, ['rm', '--force', 'busy']).code).toBe(0);
    expect(ls()).toHaveLength(0);
    expect(isPidAlive(row!.runnerPid)).toBe(false); // gone, or a zombie waiting for init to reap it
  });

  it('rename goes through the runner and keeps names unique', () => {
    newSession(home, ['--name', 'old', '--', 'sleep', '60']);
    newSession(home, ['--name', 'other', '--', 'sleep', '60']);
    expect(cli(home, ['rename', 'old', 'new-name']).code).toBe(0);
    expect(ls().map((s) => s.name).sort()).toEqual(['new-name', 'other']);
    const clash = cli(home, ['rename', 'new-name', 'other']);
    expect(clash.code).toBe(2);
    expect(cli(home, ['rename', 'other', 'bad name']).code).toBe(2);
  });

  it('new refuses a duplicate name and a missing working directory', () => {
    newSession(home, ['--name', 'dup', '--', 'sleep', '60']);
    expect(cli(home, ['new', '--name', 'dup', '--', 'sleep', '1']).stderr).toMatch(/already exists/);
    const missing = cli(home, ['new', '--', 'no-such-program-here']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/command not found: no-such-program-here/);
    const r = cli(home, ['new', '--cwd', '/no/such/dir', '--', 'true']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/does not exist/);
  });

  it('a runner that vanished shows as lost, never as running', async () => {
    newSession(home, ['--name', 'doomed', '--', 'sleep', '60']);
    const [row] = ls();
    process.kill(row!.runnerPid, 'SIGKILL');
    await waitFor('lost', () => ls()[0]?.status === 'lost');
    expect(ls()[0]?.state).toBe('lost');
    expect(cli(home, ['ls']).stdout).toMatch(/doomed\s+shell\s+lost\s/);
    const attach = cli(home, ['peek', 'doomed']);
    expect(attach.code).not.toBe(0);
    // The PTY closed with its runner, so the program got SIGHUP and is gone too; kill says so.
    const kill = cli(home, ['kill', 'doomed']);
    expect(kill.code).toBe(5);
    expect(kill.stderr).toMatch(/lost and its program is not running/);
    // Every message about it names what brings it back (issue 28), one line each.
    for (const args of [['send', 'doomed', 'hi'], ['peek', 'doomed'], ['explain', 'doomed'], ['kill', 'doomed']]) {
      const r = cli(home, args);
      expect(r.code, args[0]).toBe(5);
      expect(r.stderr, args[0]).toMatch(/^agent-board: [^\n]*bring (it|the session) back with: agent-board revive doomed[^\n]*\n$/);
    }
    expect(cli(home, ['rm', 'doomed']).code).toBe(0);
  });

  it('--help works for every command', () => {
    for (const cmd of ['new', 'ls', 'peek', 'attach', 'kill', 'rm', 'rename']) {
      const r = cli(home, [cmd, '--help']);
      expect(r.code, cmd).toBe(0);
      expect(r.stdout, cmd).toMatch(/Usage: agent-board/);
    }
    const top = cli(home, ['--help']);
    expect(top.stdout).not.toMatch(/runner/);
  });

  it('host.json has every field and is replaced atomically', () => {
    const id = newSession(home, ['--', 'sleep', '60']);
    const rec = JSON.parse(fs.readFileSync(path.join(home, 'sessions', id, 'host.json'), 'utf8')) as Record<string, unknown>;
    for (const k of ['id', 'name', 'agent', 'command', 'args', 'cwd', 'createdAt', 'runnerPid', 'childPid', 'generation', 'status', 'cols', 'rows', 'exitCode', 'exitSignal', 'updatedAt', 'heartbeatAt']) {
      expect(rec, k).toHaveProperty(k);
    }
    expect(fs.readdirSync(path.join(home, 'sessions', id)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(fs.existsSync(path.join(home, 'sessions', id, 'runner.log'))).toBe(true);
  });
});
