/**
 * The runner's sandbox, from what the runner has at hand: its home, the session's places, every
 * session's record and this machine's user. The launch itself (git, bwrap, the places) is loaded
 * only for a sandboxed session: a plain one's runner carries none of it.
 */
import os from 'node:os';
import path from 'node:path';
import type { Scheduler } from '../../core/clock.js';
import { roomOf } from '../../core/chat/chat.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import type { SandboxSetting } from '../../core/sandbox/sandbox-types.js';
import { readAllRecords } from '../../state/host-store.js';
import { roomDir, sessionDir } from '../../state/paths.js';
import type { Logger } from '../log.js';
import { allowHostsFor } from '../../core/sandbox/default-hosts.js';
import { readUserConfig } from '../../state/config.js';
import type { StartNetworkProxy } from './network-types.js';
import type { SandboxPrepared } from './sandbox-launch.js';

export interface RunnerPlaces {
  home: string;
  id: string;
  sock: string;
  env: Record<string, string>;
  log: Logger;
  scheduler: Scheduler;
  /** A connection the proxy refused (after the runner's log line): kept in host.json for `explain`. */
  denied(host: string, port: number): void;
  /** agent-board's package folder (its bin/ and dist/), which the program's hooks, chat and MCP commands run from. */
  installRoot: string;
}

/** srt's proxy (network-proxy.ts), loaded only by the runner of an allowlist session. */
const startProxy: StartNetworkProxy = async (o) => (await import('./network-proxy.js')).startNetworkProxy(o);

export async function makeSandbox(rec: HostRecord & { sandbox: SandboxSetting }, r: RunnerPlaces): Promise<SandboxPrepared> {
  const { prepareSandbox } = await import('./sandbox-launch.js');
  // config.json's `sandbox` (src/core/sandbox/sandbox-config.ts): hosts per kind and for all, paths none may read.
  const config = readUserConfig().config.sandbox;
  const userHome = r.env.HOME || os.homedir();
  return prepareSandbox({
    record: rec,
    boardHome: r.home,
    sessionDir: sessionDir(r.home, r.id),
    socketPath: r.sock,
    roomDir: roomDir(r.home, roomOf(rec)),
    userHome,
    toolRoots: [r.installRoot, path.dirname(path.dirname(process.execPath))],
    env: r.env,
    records: readAllRecords(r.home),
    // `~/x` is made absolute by the deny list (src/core/sandbox/deny-list.ts).
    configDenyRead: config.denyRead,
    allowHosts: allowHostsFor(rec.agent, rec.sandbox, config.allowHosts),
    startProxy,
    onDenied: (host, port) => r.denied(host, port),
    scheduler: r.scheduler,
    log: r.log,
  });
}
