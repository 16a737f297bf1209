/**
 * A private sshd for the --host tests: /usr/sbin/sshd -D -e on 127.0.0.1 at a
 * free port, as the current user, with a host key, a client key and
 * authorized_keys made in a temporary folder. As root it needs /run/sshd (the
 * privilege separation folder) and PermitRootLogin; as anyone else sshd runs
 * unprivileged, so no PAM and no StrictModes. start() answers with the reason
 * instead when sshd is missing or does not let us in, so the suite can skip.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const SSHD = '/usr/sbin/sshd';

export interface Sshd {
  port: number;
  /** `user@127.0.0.1`, for --host. */
  target: string;
  /** AGENT_BOARD_SSH_OPTS for a client of this server. */
  sshOpts: string;
  /** The client's private key (for an ssh config of a test's own). */
  key: string;
  stop(): void;
}

export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** ssh options that trust this test's server and key, and nothing of the user's own ssh setup. */
export function clientOpts(port: number, key: string): string {
  return `-F /dev/null -p ${port} -i ${key} -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR`;
}

export async function startSshd(): Promise<Sshd | { skip: string }> {
  if (!fs.existsSync(SSHD)) return { skip: `${SSHD} is not installed (apt-get install openssh-server)` };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-sshd-'));
  fs.chmodSync(dir, 0o700);
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  for (const name of ['host_key', 'client_key']) {
    const r = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'agent-board-test', '-f', path.join(dir, name)], { encoding: 'utf8' });
    if (r.status !== 0) {
      cleanup();
      return { skip: `ssh-keygen failed: ${r.error?.message ?? r.stderr.trim()}` };
    }
  }
  fs.copyFileSync(path.join(dir, 'client_key.pub'), path.join(dir, 'authorized_keys'));
  fs.chmodSync(path.join(dir, 'authorized_keys'), 0o600);
  const root = process.getuid?.() === 0;
  if (root) fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const port = await freePort();
  const config = path.join(dir, 'sshd_config');
  fs.writeFileSync(
    config,
    [
      `ListenAddress 127.0.0.1`,
      `Port ${port}`,
      `HostKey ${path.join(dir, 'host_key')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      root ? 'PermitRootLogin prohibit-password' : '',
      'UsePAM no',
      'StrictModes no',
      'UseDNS no',
      // A client's SetEnv may choose the home: two Host aliases of one server are two machines (test/helpers/two-hosts.ts).
      'AcceptEnv AGENT_BOARD_*',
      'PrintMotd no',
      'PrintLastLog no',
      'LogLevel INFO',
    ].join('\n') + '\n',
  );
  let log = '';
  const child: ChildProcess = spawn(SSHD, ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (s: string) => (log = (log + s).slice(-4000)));
  let exited = false;
  child.on('exit', () => (exited = true));
  child.on('error', (e) => ((exited = true), (log += e.message)));
  const stop = () => {
    child.kill();
    cleanup();
  };

  const deadline = Date.now() + 5000;
  while (!(await canConnect(port))) {
    if (exited || Date.now() > deadline) {
      stop();
      return { skip: `sshd did not start: ${log.trim().split('\n').pop() ?? 'no output'}` };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const target = `${os.userInfo().username}@127.0.0.1`;
  const sshOpts = clientOpts(port, path.join(dir, 'client_key'));
  // The account may still be refused (a locked password without PAM): try once.
  const probe = spawnSync('ssh', [...sshOpts.split(' '), '-o', 'BatchMode=yes', '-T', target, 'true'], { encoding: 'utf8', timeout: 15_000 });
  if (probe.status !== 0) {
    stop();
    return { skip: `cannot log in to the test sshd: ${probe.stderr.trim() || probe.error?.message}; sshd said: ${log.trim().split('\n').pop()}` };
  }
  return { port, target, sshOpts, key: path.join(dir, 'client_key'), stop };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createConnection({ port, host: '127.0.0.1' });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}
