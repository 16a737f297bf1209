/**
 * The runner listens before it spawns: a socket it cannot serve ends it with one log line and a
 * non-zero exit, and the program never starts; the umask is restored whether listen works or not.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import { listen } from '../../src/runner/clients/server.js';
import { writeHostFile } from '../../src/state/host-store.js';
import { hostFile, runnerLog, sessionDir, socketPath } from '../../src/state/paths.js';
import { destroyHome, makeHome, ROOT } from '../helpers/home.js';

const ENTRY = path.join(ROOT, 'dist', 'runner', 'entry.js');

let home: string;
afterEach(() => destroyHome(home));

function session(command: string, args: string[]): string {
  const id = crypto.randomBytes(4).toString('hex');
  fs.mkdirSync(sessionDir(home, id), { recursive: true, mode: 0o700 });
  const now = new Date().toISOString();
  const rec: HostRecord = {
    id, name: `s-${id}`, agent: 'shell', command, args, cwd: home, createdAt: now, updatedAt: now, heartbeatAt: now,
    lastOutputAt: null, runnerPid: null, childPid: null, generation: null, status: 'starting', cols: 80, rows: 24, exitCode: null, exitSignal: null, scrollback: 100,
  };
  writeHostFile(hostFile(home, id), rec);
  return id;
}

function runRunner(id: string): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [ENTRY, id], { env: { ...process.env, AGENT_BOARD_HOME: home }, stdio: 'ignore' });
    child.on('exit', (code) => resolve(code));
  });
}

describe('listen before spawn', () => {
  it('a socket path it cannot listen on ends the runner: one log line, exit 1, no program started', async () => {
    home = makeHome();
    const marker = path.join(home, 'started');
    const id = session('sh', ['-c', `touch '${marker}'; sleep 30`]);
    // A folder (not empty, so it cannot be cleared away as a stale socket) where the socket goes.
    const sock = socketPath(home, id);
    fs.mkdirSync(sock);
    fs.writeFileSync(path.join(sock, 'keep'), '');
    expect(await runRunner(id)).toBe(1);
    const lines = fs.readFileSync(runnerLog(home, id), 'utf8').trim().split('\n');
    const failures = lines.filter((l) => l.includes('cannot listen on'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain(`cannot listen on ${sock}:`);
    expect(failures[0]).toContain("the session's program was not started");
    expect(lines.some((l) => l.includes('child '))).toBe(false);
    await new Promise((r) => setTimeout(r, 300)); // a program that had started would have touched its file by now
    expect(fs.existsSync(marker)).toBe(false);
    const rec = JSON.parse(fs.readFileSync(hostFile(home, id), 'utf8')) as HostRecord;
    expect(rec.childPid).toBeNull();
  });

  it('listen restores the umask when it fails and when it works', async () => {
    home = makeHome();
    const before = process.umask();
    const bad = path.join(home, 'bad.sock');
    fs.mkdirSync(bad);
    fs.writeFileSync(path.join(bad, 'keep'), '');
    const logged: string[] = [];
    await expect(listen(bad, (s) => s.destroy(), (m) => void logged.push(m))).rejects.toThrow();
    expect(process.umask()).toBe(before);
    const good = path.join(home, 'good.sock');
    const server = await listen(good, (s) => s.end(), (m) => void logged.push(m));
    expect(process.umask()).toBe(before);
    expect((fs.statSync(good).mode & 0o777).toString(8)).toBe('600');
    await new Promise<void>((resolve, reject) => {
      const c = net.connect(good, () => resolve());
      c.on('error', reject);
    });
    server.dispose();
    expect(logged).toEqual([]);
  });

  it('serves its socket without loading node\'s cluster module (1.1 MiB an idle runner would keep)', async () => {
    home = makeHome();
    const sock = path.join(home, 'probe.sock');
    const module = path.join(ROOT, 'dist', 'runner', 'clients', 'server.js');
    // A fresh node, as a runner is: listen, take one connection, then say what node loaded.
    const script = `
      const { listen } = await import(${JSON.stringify(module)});
      const s = await listen(${JSON.stringify(sock)}, (c) => c.end('hi'), console.error);
      const addr = s.server.address();
      const net = await import('node:net');
      const got = await new Promise((r) => net.connect(${JSON.stringify(sock)}).on('data', (d) => r(String(d))));
      s.dispose();
      console.log(JSON.stringify({ addr, got, cluster: process.moduleLoadList.includes('NativeModule cluster') }));`;
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      child.stdout.on('data', (d: Buffer) => (text += d.toString()));
      child.on('error', reject);
      child.on('exit', () => resolve(text));
    });
    expect(JSON.parse(out)).toEqual({ addr: sock, got: 'hi', cluster: false });
  });
});
