/**
 * --host against a real sshd on 127.0.0.1: the "remote" machine is this one
 * with another AGENT_BOARD_HOME, which the remote command sets (sshd passes no
 * environment). Every client call goes through ssh and `agent-board bridge`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectRemote } from '../../src/client/remote/remote.js';
import { cli, cliAsync, destroyHome, makeHome, newSession, ROOT, waitFor } from '../helpers/home.js';
import { clientOpts, freePort, startSshd, type Sshd } from '../helpers/sshd.js';
import { killAllTmux, OUTER_PS1, outerShellCommand, tmuxAvailable, TmuxServer } from '../helpers/tmux.js';
import { REAL_TIME } from '../helpers/real-time.js';

const started = await startSshd();
const sshd: Sshd | null = 'skip' in started ? null : started;
if (!sshd) console.warn(`remote-ssh tests skipped: ${(started as { skip: string }).skip}`);

let localHome: string;
let remoteHome: string;
/** The client side's environment: how to reach the test sshd and what to run there. */
let env: Record<string, string>;
const saved = { opts: process.env.AGENT_BOARD_SSH_OPTS, cmd: process.env.AGENT_BOARD_REMOTE_COMMAND };

beforeEach(() => {
  localHome = makeHome('ab-local-');
  remoteHome = makeHome('ab-remote-');
  env = {
    AGENT_BOARD_SSH_OPTS: sshd?.sshOpts ?? '',
    AGENT_BOARD_REMOTE_COMMAND: `AGENT_BOARD_HOME=${remoteHome} ${process.execPath} ${path.join(ROOT, 'dist', 'cli', 'main.js')}`,
  };
  // For the calls this process makes itself (connectRemote).
  Object.assign(process.env, env);
});
afterEach(() => {
  killAllTmux();
  destroyHome(localHome);
  destroyHome(remoteHome);
});
afterAll(() => {
  sshd?.stop();
  for (const [k, v] of [['AGENT_BOARD_SSH_OPTS', saved.opts], ['AGENT_BOARD_REMOTE_COMMAND', saved.cmd]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

/** A remote session whose first output is a marker the command line itself does not show. */
async function remoteShell(): Promise<string> {
  const id = newSession(remoteHome, ['--name', 'far', '--', 'sh', '-c', 'echo remote-marker-$((40+2)); exec sh']);
  await waitFor('marker', () => cli(remoteHome, ['peek', id]).stdout.includes('remote-marker-42'));
  return id;
}

/** Processes whose command line mentions `needle` (ssh and the bridge it runs). */
function processesWith(needle: string): number[] {
  const pids: number[] = [];
  for (const p of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid)) {
    try {
      if (fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(needle)) pids.push(Number(p));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** Our ssh clients (not the remote shell and bridge they started) whose command line mentions `needle`. */
function sshClients(needle: string): number[] {
  return processesWith(needle).filter((p) => {
    try {
      return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').startsWith('ssh\0');
    } catch {
      return false;
    }
  });
}

describe.skipIf(!sshd)('sessions on another machine, over ssh', () => {
  it('ls --host lists the remote sessions, as JSON and as a table', async () => {
    const id = await remoteShell();
    const json = await cliAsync(localHome, ['ls', '--host', sshd!.target, '--json'], { env });
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const list = JSON.parse(json.stdout) as Array<{ id: string; name: string; status: string }>;
    expect(list.map((s) => [s.id, s.name, s.status])).toEqual([[id, 'far', 'running']]);
    const table = await cliAsync(localHome, ['ls', '--host', sshd!.target], { env });
    expect(table.stdout).toMatch(new RegExp(`${id}\\s+far\\s+shell\\s+(starting|busy|idle)\\s`));
    expect(cli(localHome, ['ls', '--json']).stdout.trim()).toBe('[]'); // the local home is untouched
    // --host before the command is the command's own.
    const before = await cliAsync(localHome, ['--host', sshd!.target, 'ls', '--json'], { env });
    expect(before).toMatchObject({ code: 0, stderr: '' });
    expect((JSON.parse(before.stdout) as Array<{ id: string }>).map((s) => s.id)).toEqual([id]);
  });

  it('peek --host prints the remote screen', async () => {
    const id = await remoteShell();
    const r = await cliAsync(localHome, ['peek', '--host', sshd!.target, id.slice(0, 4)], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('remote-marker-42');
  });

  it('explain --host asks the remote runner why its session shows its state', async () => {
    const id = await remoteShell();
    const r = await cliAsync(localHome, ['explain', '--host', sshd!.target, id.slice(0, 4), '--json'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const x = JSON.parse(r.stdout) as { id: string; kind: string; layers: { source: string; used: boolean }[] };
    expect(x.id).toBe(id);
    expect(x.kind).toBe('shell');
    expect(x.layers.filter((l) => l.used).map((l) => l.source)).toEqual(['bytes']);
  });

  it('send --host types a prompt once into the remote session and reports it applied; its id retried is not typed again', async () => {
    const id = await remoteShell();
    const r = await cliAsync(localHome, ['send', '--host', sshd!.target, id, '--json', 'echo sent-over-$((6*7))'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const sent = JSON.parse(r.stdout) as { status: string; commandId: string; session: string; name: string; host: string };
    expect(sent).toMatchObject({ status: 'applied', session: id, name: 'far', host: sshd!.target });
    await waitFor('the prompt ran remotely', () => cli(remoteHome, ['peek', id]).stdout.includes('sent-over-42'));
    // Retried with its id (and --host before the command): asked first, applied, and says what and where.
    const again = await cliAsync(localHome, ['--host', sshd!.target, 'send', id, '--command-id', sent.commandId, 'echo sent-over-$((6*7))'], { env });
    expect(again.code).toBe(0);
    // The text is cut to keep the line within 80 columns.
    expect(again.stdout).toMatch(/^applied: typed "echo [^"]*" \(\+ Enter\) into far on \S+@127\.0\.0\.1; command [0-9a-f]{8}…\n$/);
    expect(again.stdout.trimEnd().length).toBeLessThanOrEqual(80);
    expect(again.stdout).toContain(sent.commandId.slice(0, 8));
    const screen = cli(remoteHome, ['peek', id]).stdout;
    expect(screen.match(/echo sent-over/g)).toHaveLength(1); // typed once, not twice
    const unknown = await cliAsync(localHome, ['send', '--host', sshd!.target, 'nope', 'hi'], { env });
    expect(unknown.code).toBe(3);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
  });

  it.skipIf(!tmuxAvailable())('attach --host: the screen comes back, typing goes through, the detach key leaves it running', async () => {
    const id = await remoteShell();
    const shell = outerShellCommand(localHome);
    const t = TmuxServer.start({ command: [shell[0]!, ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...shell.slice(1)], cols: 100, rows: 30 });
    await t.waitForScreen('the outer prompt', (s) => s.text.includes(OUTER_PS1.trim()));
    t.typeLine(`agent-board attach --host ${sshd!.target} far`);
    await t.waitForScreen('the remote screen', (s) => s.text.includes('remote-marker-42'), { timeoutMs: 15_000 });
    t.typeLine('echo typed-$((6*7)); stty size');
    await t.waitForScreen('the typed command', (s) => s.text.includes('typed-42') && s.text.includes('30 100'));
    // The link drops: the attach reconnects through a new ssh, by id, and carries on.
    for (const pid of sshClients('bridge far')) process.kill(pid, 'SIGKILL');
    await waitFor('a new ssh', () => sshClients(`bridge ${id}`).length > 0, 10_000);
    // Keys typed before the new connection's hello are dropped (as in any attach): type until it is there.
    await waitFor('typing after the reconnect', () => {
      if (t.capture().text.includes('again-48')) return true;
      t.typeLine('echo again-$((6*8))');
      return false;
    }, 15_000, 1000);
    t.keys(['C-\\']);
    await t.waitForScreen('the detach line', (s) => s.text.includes(`detached from far on ${sshd!.target}`));
    const after = JSON.parse(cli(remoteHome, ['ls', '--json']).stdout) as Array<{ id: string; status: string }>;
    expect(after).toEqual([expect.objectContaining({ id, status: 'running' })]);
  });

  it('destroying a remote connection ends ssh and the bridge on the other side', async () => {
    const id = await remoteShell();
    const conn = await connectRemote(sshd!.target, id, { scheduler: REAL_TIME.scheduler, client: 'test', readOnly: true });
    expect(conn.hello.host.id).toBe(id);
    expect(processesWith(`bridge ${id}`).length).toBeGreaterThan(0);
    conn.dispose();
    await waitFor('ssh and the bridge to go', () => processesWith(`bridge ${id}`).length === 0, 5000);
  });

  it('an unknown remote session is exit 3 with one line', async () => {
    await remoteShell();
    const r = await cliAsync(localHome, ['peek', '--host', sshd!.target, 'nope'], { env });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^agent-board: .*127\.0\.0\.1: no session "nope"[^\n]*\n$/);
  });

  it('an exited remote session is exit 5 with one line', async () => {
    const id = newSession(remoteHome, ['--', 'sh', '-c', 'exit 3']);
    await waitFor('exit', () => cli(remoteHome, ['ls', '--json']).stdout.includes('"exited"'));
    const r = await cliAsync(localHome, ['peek', '--host', sshd!.target, id], { env });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/^agent-board: [^\n]*has exited \(exit code 3\)\n$/);
  });

  it('an unreachable host is exit 5 with one line, at once', async () => {
    const closed = await freePort();
    const unreachable = { ...env, AGENT_BOARD_SSH_OPTS: clientOpts(closed, '/dev/null') };
    for (const args of [['ls', '--host', sshd!.target], ['peek', '--host', sshd!.target, 'far']]) {
      // ssh is refused at once and says so: a command that hung or retried would be ended by cliAsync
      // after 20 s (no exit 5), or say something else than 'refused'.
      const r = await cliAsync(localHome, args, { env: unreachable });
      expect(r.code).toBe(5);
      expect(r.stderr).toMatch(/^agent-board: cannot reach [^\n]+ over ssh: [^\n]*refused[^\n]*\n$/);
    }
  });

  it('a bad --host is a usage error', async () => {
    const r = await cliAsync(localHome, ['ls', '--host', '-oProxyCommand=x'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^agent-board: invalid --host[^\n]*\n$/);
  });
});

describe('agent-board bridge, locally', () => {
  it('copies bytes both ways and exits 0 when the runner closes', async () => {
    const id = await remoteShell();
    // stdin: a hello, then its end: the runner answers and closes after the half-close.
    const r = cli(remoteHome, ['bridge', id], { input: '{"type":"hello","protocol":1}\n' });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; host?: { id: string } });
    expect(lines[0]).toMatchObject({ type: 'hello', host: { id } });
  });

  it('an unknown session is exit 3 and nothing on stdout', () => {
    const r = cli(remoteHome, ['bridge', 'nope'], { input: '' });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
