/**
 * logind's own files, read without asking logind (no process): the linger flag and
 * KillUserProcesses= in logind.conf and its drop-ins. AGENT_BOARD_TEST_SYSTEM_ROOT stands in for
 * `/` in tests, which cannot write /etc or /var.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { killUserProcessesFrom } from '../../core/systemd-scope.js';

const root = (env: NodeJS.ProcessEnv, p: string) => path.join(env.AGENT_BOARD_TEST_SYSTEM_ROOT || '/', p);

/** logind's flag file for `loginctl enable-linger`. */
export function lingerFile(env: NodeJS.ProcessEnv = process.env, user = os.userInfo().username): string {
  return root(env, path.join('var/lib/systemd/linger', user));
}

/** The drop-in folders logind reads, lowest priority first (logind.conf(5)). */
const DROP_IN_DIRS = ['usr/lib/systemd/logind.conf.d', 'usr/local/lib/systemd/logind.conf.d', 'run/systemd/logind.conf.d', 'etc/systemd/logind.conf.d'];

function read(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return ''; // not there: nothing set by it
  }
}

/** KillUserProcesses= as configured here; null when no file sets it (the compiled-in default holds). */
export function configuredKillUserProcesses(env: NodeJS.ProcessEnv = process.env): boolean | null {
  const dropIns = new Map<string, string>();
  for (const dir of DROP_IN_DIRS) {
    let names: string[] = [];
    try {
      names = fs.readdirSync(root(env, dir)).filter((n) => n.endsWith('.conf'));
    } catch {
      // no such folder
    }
    for (const n of names) dropIns.set(n, root(env, path.join(dir, n))); // a later folder's file of the same name replaces it
  }
  const order = [...dropIns.keys()].sort().map((n) => dropIns.get(n)!);
  return killUserProcessesFrom([read(root(env, 'etc/systemd/logind.conf')), ...order.map(read)]);
}
