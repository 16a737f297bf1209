/**
 * The real-agent lane's parts: finding the pinned CLIs (installed by .ci/run
 * into a cache outside the clone, never into our dependencies), a vendor mock
 * on a free port, and a private world for one CLI: a temporary $HOME with its
 * config, a 0700 AGENT_BOARD_HOME under the system's temporary folder (world
 * writable on most machines: the case Gemini's settings check refuses), a
 * project folder, and the real `bin/agent-board` run with all of it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliAsync, destroyHome, makeHome, ROOT, type CliResult } from '../helpers/home.js';
import type { SandboxDenial, SandboxSetting } from '../../src/core/sandbox/sandbox-types.js';
import { SETUPS, type LaneKind } from './agent-homes.js';

export const CLIS_DIR = process.env.AGENT_BOARD_AGENT_CLIS || path.join(os.homedir(), '.cache', 'agent-board-ci', 'agent-clis');
const PINNED = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'agents', 'clis.json'), 'utf8')) as Record<LaneKind, { package: string; version: string }>;

/** The CLI's bin folder when the pinned version is installed, else why the lane cannot run it. */
export function findCli(kind: LaneKind): { binDir: string } | { skip: string } {
  const { package: pkg, version } = PINNED[kind];
  const binDir = path.join(CLIS_DIR, 'node_modules', '.bin');
  let found: string;
  try {
    found = (JSON.parse(fs.readFileSync(path.join(CLIS_DIR, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return { skip: `${pkg}@${version} is not installed in ${CLIS_DIR} (.ci/run installs it; AGENT_BOARD_AGENT_CLIS names another folder)` };
  }
  if (found !== version) return { skip: `${pkg} in ${CLIS_DIR} is ${found}, the lane is pinned to ${version} (run .ci/run)` };
  if (!fs.existsSync(path.join(binDir, kind))) return { skip: `${pkg}@${version} is installed but ${path.join(binDir, kind)} is missing` };
  return { binDir };
}

export interface MockEntry {
  t: number;
  /** `limit`: a usage limit began (until `resetAt`); `limited`: a request answered with it. */
  ev: 'request' | 'end' | 'error' | 'limit' | 'limited';
  resetAt?: string;
  url?: string;
  body?: string;
  n?: number;
}

export interface Mock {
  url: string;
  entries(): MockEntry[];
  stop(): void;
}

/** Starts test/fixtures/mocks/mock-<vendor>.mjs on a free port; resolves once it listens. */
/**
 * The mock's log so far: whole lines only. The mock appends a line (some tens of KiB: a request
 * with its prompt) in one write, which a read at the same moment can see half of.
 */
export function mockEntries(logFile: string): MockEntry[] {
  if (!fs.existsSync(logFile)) return [];
  const lines = fs.readFileSync(logFile, 'utf8').split('\n');
  lines.pop(); // after the last newline: nothing, or a line still being written
  return lines.filter(Boolean).map((l) => JSON.parse(l) as MockEntry);
}

export async function startMock(vendor: string, logFile: string, delayMs: number, mockEnv: Record<string, string> = {}): Promise<Mock> {
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'test', 'fixtures', 'mocks', `mock-${vendor}.mjs`)], {
    env: { ...process.env, ...mockEnv, PORT: '0', DELAY_MS: String(delayMs), MOCK_LOG: logFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mock-${vendor} did not say its port within 5 s: ${out}`)), 5000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) (clearTimeout(timer), resolve(Number(m[1])));
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (clearTimeout(timer), reject(new Error(`mock-${vendor} exited (${code}): ${out}`))));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    entries: () => mockEntries(logFile),
    stop: () => child.kill(),
  };
}

export interface Reading {
  activity?: string;
  source?: string;
  /** The runner's time of the change (activitySince). */
  since: number;
}

export interface Record_ {
  id: string;
  name: string;
  agent: string;
  status: string;
  activity?: string;
  activitySource?: string;
  activitySince?: string;
  lastOutputAt?: string | null;
  resumeId?: string;
  args?: string[];
  runnerPid?: number | null;
  childPid?: number | null;
  hooksNote?: string;
  env?: Record<string, string>;
  sandbox?: SandboxSetting;
  sandboxDenied?: SandboxDenial[];
}

/** One CLI's world; `ab` runs the real CLI in it. */
export class Lane {
  readonly dir: string;
  readonly home: string;
  readonly project: string;
  readonly abHome: string;
  env: Record<string, string> = {};
  mock!: Mock;
  private watchers: NodeJS.Timeout[] = [];

  /** `base`: the folder the lane's world is made in, instead of the system's temporary folder (the sandbox lane: not under /tmp). */
  constructor(readonly kind: LaneKind, private readonly binDir: string, base?: string) {
    this.dir = fs.mkdtempSync(path.join(base ?? os.tmpdir(), 'ab-lane-'));
    this.home = path.join(this.dir, 'home');
    this.project = path.join(this.dir, 'project');
    if (base) {
      this.abHome = fs.mkdtempSync(path.join(base, 'ab-lane-state-'));
      fs.chmodSync(this.abHome, 0o700);
    } else this.abHome = makeHome('ab-lane-state-');
  }

  /** `mockEnv`: the mock's own settings (MOCK_LIMIT_RESET_S, test/fixtures/mocks/common.mjs). */
  async start(delayMs: number, mockEnv: Record<string, string> = {}): Promise<void> {
    const setup = SETUPS[this.kind];
    fs.mkdirSync(this.home, { mode: 0o700 });
    fs.mkdirSync(this.project, { mode: 0o700 });
    this.mock = await startMock(setup.vendor, path.join(this.dir, 'mock.jsonl'), delayMs, mockEnv);
    this.env = {
      HOME: this.home,
      PATH: `${this.binDir}:${process.env.PATH ?? ''}`,
      // Posted from here, a chat message is a human's, whatever session the test itself runs in.
      AGENT_BOARD_SESSION: '',
      // Wakes sooner than in real use (docs/wakes.md); the runners inherit these from `new`.
      AGENT_BOARD_WAKE_IDLE_MS: '800',
      AGENT_BOARD_WAKE_COALESCE_MS: '200',
      AGENT_BOARD_WAKE_SUPPRESS_MS: '1500',
      AGENT_BOARD_WAKE_CAP_MS: '2500',
      AGENT_BOARD_WAKE_SUBMIT_MS: '300',
      ...setup.configure(this.home, this.project, this.mock.url),
    };
  }

  ab(args: string[]): Promise<CliResult> {
    return cliAsync(this.abHome, args, { env: this.env });
  }

  /** `new` from the project folder; throws with what the CLI said on failure. */
  async newSession(args: string[]): Promise<{ id: string; stderr: string }> {
    const r = await cliAsync(this.abHome, ['new', '--cwd', this.project, ...args], { env: this.env });
    if (r.code !== 0) throw new Error(`agent-board new ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return { id: r.stdout.trim(), stderr: r.stderr };
  }

  record(id: string): Record_ | undefined {
    try {
      return JSON.parse(fs.readFileSync(path.join(this.abHome, 'sessions', id, 'host.json'), 'utf8')) as Record_;
    } catch {
      return undefined; // not written yet, or mid-replace
    }
  }

  /** Every change of a session's activity, read off host.json every 20 ms from now on. */
  watch(id: string): Reading[] {
    const log: Reading[] = [];
    const timer = setInterval(() => {
      const r = this.record(id);
      if (!r?.activitySince) return;
      const since = Date.parse(r.activitySince);
      const last = log[log.length - 1];
      if (!last || last.activity !== r.activity || last.source !== r.activitySource || last.since !== since) log.push({ activity: r.activity, source: r.activitySource, since });
    }, 20);
    this.watchers.push(timer);
    return log;
  }

  async peek(name: string): Promise<string> {
    const r = await this.ab(['peek', name]);
    return r.code === 0 ? r.stdout : `(peek failed: ${r.stderr.trim()})`;
  }

  /**
   * Waits until the session printed nothing for 800 ms (6 s at most: an idle
   * screen that repaints never goes quiet). A CLI that has just said it is
   * idle may still be starting up; a prompt typed then can be lost (see
   * docs/agents.md, the lane), and the lane tests the status, not that race.
   */
  async settled(id: string): Promise<void> {
    const quiet = () => {
      const at = this.record(id)?.lastOutputAt;
      return !at || Date.now() - Date.parse(at) >= 800;
    };
    await until('quiet', quiet, 6000).catch(() => undefined);
  }

  /** Peeks until the screen shows `text`; the error carries the last screen. */
  async screenShows(name: string, text: string, ms: number): Promise<void> {
    const deadline = Date.now() + ms;
    for (;;) {
      const shown = await this.peek(name);
      if (shown.includes(text)) return;
      if (Date.now() > deadline) throw new Error(`"${text}" never showed on ${name}'s screen; last:\n${shown}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  stop(): void {
    for (const t of this.watchers) clearInterval(t);
    this.mock?.stop();
    destroyHome(this.abHome);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Polls `fn` until it gives a value; on timeout the error carries `context()` (the screen, say). */
export async function until<T>(what: string, fn: () => T | undefined | null | false, ms: number, context?: () => Promise<string>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}${context ? `\n${await context()}` : ''}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
