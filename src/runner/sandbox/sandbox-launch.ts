/**
 * A sandboxed session's launch (docs/sandbox.md), made by its runner before the program starts:
 * the preflight again (bubblewrap removed since `new`, a reboot revive), the worktree's git made
 * ready, the kind's state folder, Claude's config file, the proxy for `--network allowlist`, the
 * program's environment cleaned, and the bwrap command node-pty spawns instead of the program.
 * A sandbox that cannot be made is one line, and the program is not started at all.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Scheduler } from '../../core/clock.js';
import { DisposableStore, type Disposable } from '../../core/lifetime.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import { bwrapCommand, type GitPieces, type SandboxCommand } from '../../core/sandbox/bwrap-args.js';
import { ENV_DROPPED } from '../../core/sandbox/deny-list.js';
import { argsInSandbox, claudeConfigDir } from '../../core/sandbox/kind-in-sandbox.js';
import { SANDBOXED_ENV, type SandboxSetting } from '../../core/sandbox/sandbox-types.js';
import { prepareGitSandbox, releaseGitSandbox, sessionObjectDir } from '../../state/sandbox/git-sandbox.js';
import { pathType, sandboxPlaces } from '../../state/sandbox/sandbox-places.js';
import { sandboxPreflight } from '../../state/sandbox/sandbox-preflight.js';
import type { Logger } from '../log.js';
import { runCommand } from '../../state/process/run.js';
import { containerLaunch, containerName, removeContainerArgs } from './container-launch.js';
import type { NetworkProxy, StartNetworkProxy } from './network-types.js';

/** Removing a leftover container asks the engine once; a stuck engine gets this long before the start goes on. */
const LEFTOVER_REMOVE_MS = 15_000;

export interface SandboxLaunchOptions {
  record: HostRecord & { sandbox: SandboxSetting };
  boardHome: string;
  sessionDir: string;
  socketPath: string;
  roomDir: string;
  userHome: string;
  /** What agent-board runs from (its package folder, node's prefix): bound back read-only when it lies under the private /tmp. */
  toolRoots: readonly string[];
  /** The program's environment as it would be unsandboxed. */
  env: Record<string, string>;
  /** Every session's record: the other worktrees are hidden. */
  records: readonly HostRecord[];
  /** config.json's `sandbox.denyRead` (the session's own is in its setting). */
  configDenyRead: readonly string[];
  /** `--network allowlist`'s hosts (the kind's, config.json's, the session's). */
  allowHosts: readonly string[];
  /** The proxy maker; null where none is available (allowlist then refuses). */
  startProxy: StartNetworkProxy | null;
  onDenied(host: string, port: number): void;
  scheduler: Scheduler;
  log: Logger;
}

/** What the session spawns through: its arguments as the sandbox wants them, then the whole wrapped command. */
export interface SandboxLaunch {
  programArgs(args: readonly string[]): string[];
  wrap(launch: SandboxCommand): SandboxCommand;
  /** Once the program has exited, before its exit is recorded: a record that says `exited` means its commits are in the repository. */
  programExited(): void;
}

export interface PreparedSandbox extends SandboxLaunch, Disposable {
  /** The program's environment inside (Claude's CLAUDE_CONFIG_DIR: the usage reader needs it too). */
  env: Record<string, string>;
}

export type SandboxPrepared = { ok: true; sandbox: PreparedSandbox } | { ok: false; line: string };

/** Claude keeps ~/.claude.json in its config folder inside the sandbox: seeded from the home's the first time. */
function seedClaudeConfig(env: Record<string, string>, userHome: string, log: Logger): void {
  const { dir, given } = claudeConfigDir(env, userHome);
  if (given) return;
  env.CLAUDE_CONFIG_DIR = dir;
  const seeded = path.join(dir, '.claude.json');
  const source = path.join(userHome, '.claude.json');
  if (fs.existsSync(seeded) || !fs.existsSync(source)) return;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.copyFileSync(source, seeded);
  log(`sandbox: seeded ${seeded} from ${source}`);
}

export async function prepareSandbox(o: SandboxLaunchOptions): Promise<SandboxPrepared> {
  const { record: rec, log } = o;
  const setting = rec.sandbox;
  const pre = await sandboxPreflight(setting, o.env, o.scheduler, process.platform, rec.cwd);
  if (!pre.ok) return pre;
  const store = new DisposableStore();
  try {
    const env: Record<string, string> = { ...o.env };
    for (const k of ENV_DROPPED) delete env[k];
    // A TMPDIR outside /tmp is read-only inside (Claude Code dies at start, unable to mkdir in it): the
    // sandbox's own /tmp, private to it, is where its temporary files go.
    for (const k of ['TMPDIR', 'TMP', 'TEMP']) if (env[k] !== undefined) env[k] = '/tmp';
    env[SANDBOXED_ENV] = '1';
    if (rec.agent === 'claude') seedClaudeConfig(env, o.userHome, log);
    let git: GitPieces | null = null;
    if (rec.worktree) {
      const g = prepareGitSandbox(rec.worktree.path, rec.worktree.branch, sessionObjectDir(o.sessionDir));
      if (!g.ok) return { ok: false, line: g.line };
      git = g.pieces;
      Object.assign(env, g.env);
    }
    fs.mkdirSync(o.roomDir, { recursive: true, mode: 0o700 });
    const places = sandboxPlaces(rec, o.userHome, env, o.records, [...o.configDenyRead, ...(setting.denyRead ?? [])]);
    let proxy: NetworkProxy | null = null;
    if (setting.network === 'allowlist') {
      if (!o.startProxy) return { ok: false, line: 'cannot sandbox: the network allowlist is not available in this runner (use --network all or none)' };
      proxy = store.add(await o.startProxy({ allowHosts: o.allowHosts, onDenied: o.onDenied, log }));
      Object.assign(env, proxy.env);
    }
    const proxyPlan = proxy ? { socketPath: proxy.socketPath, bridge: proxy.bridge } : null;
    if ('container' in pre) {
      const ready = pre.container;
      const containerFor = (launch: SandboxCommand) =>
        containerLaunch({
          ready, sessionId: rec.id, userHome: o.userHome, uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0, network: setting.network, env, proxy: proxyPlan,
          places: { cwd: rec.cwd, sessionDir: o.sessionDir, socketPath: o.socketPath, roomDir: o.roomDir, stateDir: places.stateDir, git, denied: places.denied },
          command: launch.command, args: launch.args,
        });
      // Paths the engines cannot be told (a ':' in one) refuse now, before anything starts.
      const tried = containerFor({ command: 'true', args: [] });
      if (!tried.ok) return tried;
      // A container a SIGKILLed runner left behind holds the session's name: gone before this one runs.
      const leftover = await runCommand(ready.program, removeContainerArgs(containerName(rec.id)), { env: o.env, timeoutMs: LEFTOVER_REMOVE_MS, graceMs: 0, scheduler: o.scheduler, group: true });
      if (leftover.code === 0 && leftover.stdout.trim()) log(`sandbox: removed the container ${containerName(rec.id)} an earlier runner left running`);
      log(`sandbox: ${ready.engine} container ${containerName(rec.id)} of ${'image' in ready.root ? ready.root.image : ready.root.rootfs} (from ${ready.from}), network ${setting.network}`);
      const sandbox: PreparedSandbox = {
        env: { ...env, HOME: o.userHome },
        programArgs: (args) => argsInSandbox(rec.agent, args),
        wrap: (launch) => {
          const l = containerFor(launch);
          return l.ok ? { command: l.launch.command, args: l.launch.args } : { command: 'false', args: [] };
        },
        programExited: () => (git ? void releaseGitSandbox(git) : undefined),
        dispose: () => store.dispose(),
      };
      return { ok: true, sandbox };
    }
    const plan = {
      bwrap: pre.bwrap, cwd: rec.cwd, userHome: o.userHome, toolRoots: o.toolRoots, boardHome: o.boardHome, sessionDir: o.sessionDir, socketPath: o.socketPath,
      roomDir: o.roomDir, stateDir: places.stateDir, git, denied: places.denied, runtimeDir: places.runtimeDir, network: setting.network,
      proxy: proxy ? { socketPath: proxy.socketPath, bridge: proxy.bridge } : null, typeOf: pathType,
    };
    log(`sandbox: ${pre.version}, network ${setting.network}, writable ${[rec.cwd, places.stateDir, o.roomDir].filter(Boolean).join(', ')}${git ? ' and the branch ' + rec.worktree!.branch : ''}`);
    const sandbox: PreparedSandbox = {
      env,
      programArgs: (args) => argsInSandbox(rec.agent, args),
      wrap: (launch) => bwrapCommand({ ...plan, command: launch.command, args: launch.args }),
      programExited: () => {
        if (!git) return;
        try {
          const moved = releaseGitSandbox(git);
          log(`sandbox: ${moved} object file(s) of the session moved into ${git.commonDir}`);
        } catch (err) {
          log(`sandbox: could not move the session's objects into ${git.commonDir} (kept in ${git.objectDir}, still an alternate): ${(err as Error).message}`);
        }
      },
      dispose: () => store.dispose(),
    };
    return { ok: true, sandbox };
  } catch (err) {
    store.dispose();
    return { ok: false, line: `cannot sandbox: ${(err as Error).message}` };
  }
}
