/**
 * A rig for sandboxed sessions on real runners (docs/sandbox.md): a fixture outside /tmp (the
 * sandbox's /tmp is its own, so a fixture there would be out of reach for a reason other than the
 * sandbox), a fake home with an ssh key, a repository with worktrees, and sessions whose program is
 * a small sh script that tries something and prints what happened.
 *
 * AGENT_BOARD_TEST_NO_SANDBOX=1 runs the same sessions without the sandbox: every attack test then
 * fails, which is how each was shown to test the sandbox and not something else.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createSession } from '../../src/client/session/session-create.js';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import type { SandboxSetting } from '../../src/core/sandbox/sandbox-types.js';
import type { WorktreeInfo } from '../../src/core/worktree/worktree.js';
import { cli, destroyHome, makeHome, waitFor } from '../helpers/home.js';
import { readHost } from '../helpers/control.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { sh } from './worktree-new-helpers.js';

export const NONE: SandboxSetting = { backend: 'bwrap', network: 'none' };
const UNSANDBOXED = process.env.AGENT_BOARD_TEST_NO_SANDBOX === '1';

/** A program's run: generous, since the machine runs other tests beside it. */
const EXIT_WAIT_MS = 30_000;

/** `sandbox: null`: unsandboxed; `agent`: the record's kind (the program stays the script). */
interface StartOptions {
  worktree?: WorktreeInfo;
  sandbox?: SandboxSetting | null;
  agent?: string;
  /** A worktree's setup command (`new --setup`), run before the program on the first start. */
  setup?: string;
}

export class SandboxRig {
  readonly root = fs.realpathSync(fs.mkdtempSync('/var/tmp/ab-sbx-'));
  readonly home = path.join(this.root, 'home');
  readonly repo = path.join(this.root, 'repo');
  readonly outside = path.join(this.root, 'outside');
  readonly runtime = path.join(this.root, 'run');
  readonly board = makeHome('ab-sbx-');
  private worktrees = 0;
  private readonly saved = { HOME: process.env.HOME, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR };

  constructor() {
    fs.mkdirSync(path.join(this.home, '.ssh'), { recursive: true });
    fs.writeFileSync(path.join(this.home, '.ssh', 'id_ed25519'), 'SECRET-KEY-0042\n');
    fs.mkdirSync(this.outside);
    fs.mkdirSync(this.runtime, { mode: 0o700 });
    fs.mkdirSync(this.repo);
    sh(this.repo, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(this.repo, 'README.md'), 'hello\n');
    sh(this.repo, 'add', '-A');
    sh(this.repo, 'commit', '-q', '-m', 'init');
    sh(this.repo, 'branch', 'other');
    // The runners, and through them the programs, take the home and the runtime folder from here.
    process.env.HOME = this.home;
    process.env.XDG_RUNTIME_DIR = this.runtime;
  }

  /** A new worktree of the repository on a new branch, as `new --worktree` makes one. */
  worktree(): WorktreeInfo {
    const n = ++this.worktrees;
    const p = path.join(this.root, `wt-${n}`);
    const branch = `sess-${n}`;
    sh(this.repo, 'worktree', 'add', '-q', '-b', branch, p, 'main');
    return { repo: this.repo, path: p, branch, base: 'main', baseCommit: sh(this.repo, 'rev-parse', 'main').trim(), createdBranch: true };
  }

  /** Starts `script` under sh in a session (sandboxed unless `sandbox: null`); resolves once its runner serves. */
  async start(script: string, o: StartOptions = {}): Promise<HostRecord> {
    const sandbox = o.sandbox === undefined ? NONE : o.sandbox;
    const extra: Partial<HostRecord> = {};
    if (sandbox && !UNSANDBOXED) extra.sandbox = sandbox;
    if (o.worktree) extra.worktree = o.worktree;
    if (o.setup) extra.worktreeSetup = { command: o.setup };
    const cwd = o.worktree?.path ?? this.outside;
    return createSession(this.board, { command: '/bin/sh', args: ['-c', script], cwd, cols: 100, rows: 30, extra, ...(o.agent ? { agent: o.agent } : {}) }, REAL_TIME);
  }

  async exited(id: string): Promise<HostRecord> {
    return waitFor(`${id} exited`, () => {
      const r = readHost(this.board, id);
      return r.status === 'exited' ? r : null;
    }, EXIT_WAIT_MS);
  }

  /** The session's screen as `peek` prints it. */
  screen(id: string): string {
    return cli(this.board, ['peek', id]).stdout;
  }

  /** Runs `script` to its end; its screen and its record. */
  async run(script: string, o: StartOptions = {}): Promise<{ screen: string; rec: HostRecord }> {
    const rec = await this.start(script, o);
    const done = await this.exited(rec.id);
    return { screen: this.screen(rec.id), rec: done };
  }

  async waitScreen(id: string, text: string): Promise<string> {
    return waitFor(`${text} on ${id}'s screen`, () => {
      const s = this.screen(id);
      return s.includes(text) ? s : null;
    }, EXIT_WAIT_MS, 100);
  }

  dispose(): void {
    process.env.HOME = this.saved.HOME;
    if (this.saved.XDG_RUNTIME_DIR === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = this.saved.XDG_RUNTIME_DIR;
    destroyHome(this.board);
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
