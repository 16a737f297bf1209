/**
 * A private tmux server per test: the real terminal an attach runs in. Each
 * server has its own socket name (tmux -L), no config (-f /dev/null) and one
 * detached session of a fixed size; tests type with send-keys and read the
 * screen with capture-pane. killAllTmux() in afterEach cleans up every server
 * a test started, even when the test failed half way.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './home.js';

/** How often waitForScreen polls and how long it waits by default. */
export const POLL_MS = 50;
export const SCREEN_TIMEOUT_MS = 10_000;

export interface TmuxOptions {
  /** The pane's program, as argv (run directly, no `sh -c`). */
  command: string[];
  cols?: number;
  rows?: number;
  /** Extra environment for the server (and so the pane). */
  env?: Record<string, string>;
}

export interface Screen {
  /** Every row of the pane, trailing blanks trimmed; always `rows` entries. */
  lines: string[];
  /** The same rows joined with newlines. */
  text: string;
}

const live = new Set<TmuxServer>();

/** The environment tmux runs with: ours, without any outer tmux, with the agent-board bin and node on PATH. */
function tmuxEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.TMUX;
  delete env.TMUX_PANE;
  env.PATH = [path.join(ROOT, 'bin'), path.dirname(process.execPath), process.env.PATH ?? '/usr/bin:/bin'].join(':');
  return env;
}

export class TmuxServer {
  readonly socket: string;
  private readonly env: NodeJS.ProcessEnv;
  private killed = false;

  private constructor(opts: TmuxOptions) {
    this.socket = `ab-e2e-${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
    this.env = tmuxEnv(opts.env);
    live.add(this);
    this.run(['new-session', '-d', '-x', String(opts.cols ?? 120), '-y', String(opts.rows ?? 35), ...opts.command]);
  }

  /** Starts a server with one detached session running `command`. */
  static start(opts: TmuxOptions): TmuxServer {
    return new TmuxServer(opts);
  }

  /** Runs a tmux command against this server; throws with tmux's message if it fails. */
  run(args: string[]): string {
    const r = spawnSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], {
      env: this.env,
      encoding: 'utf8',
      timeout: 5_000,
    });
    if (r.error) throw r.error;
    if (r.status !== 0) throw new Error(`tmux ${args.join(' ')} failed (${r.status}): ${r.stderr.trim()}`);
    return r.stdout;
  }

  /** Types text literally (no key-name lookup). */
  type(text: string, target?: string): void {
    this.run(['send-keys', ...targetArgs(target), '-l', '--', text]);
  }

  /** Sends named keys, e.g. Enter, 'C-\\', C-c. */
  keys(keys: string[], target?: string): void {
    this.run(['send-keys', ...targetArgs(target), ...keys]);
  }

  /** Types a line and presses Enter. */
  typeLine(text: string, target?: string): void {
    this.type(text, target);
    this.keys(['Enter'], target);
  }

  /** The pane's visible rows, as text. */
  capture(target?: string): Screen {
    const out = this.run(['capture-pane', '-p', ...targetArgs(target)]);
    const lines = out.replace(/\n$/, '').split('\n').map((l) => l.trimEnd());
    return { lines, text: lines.join('\n') };
  }

  /** The pane's visible rows with colours and attributes as escape sequences (capture-pane -e). */
  captureAnsi(target?: string): string[] {
    return this.run(['capture-pane', '-p', '-e', ...targetArgs(target)]).replace(/\n$/, '').split('\n');
  }

  /** A tmux format evaluated for the pane, e.g. '#{cursor_x},#{cursor_y}'. */
  display(format: string, target?: string): string {
    return this.run(['display-message', '-p', ...targetArgs(target), format]).replace(/\n$/, '');
  }

  /** Polls the pane until `pred` holds; the error names what was awaited and shows the last screen. */
  async waitForScreen(what: string, pred: (s: Screen) => boolean, opts: { target?: string; timeoutMs?: number } = {}): Promise<Screen> {
    const deadline = Date.now() + (opts.timeoutMs ?? SCREEN_TIMEOUT_MS);
    let last: Screen | null = null;
    for (;;) {
      try {
        last = this.capture(opts.target);
        if (pred(last)) return last;
      } catch (err) {
        if (this.killed) throw err;
      }
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for the screen to show ${what}; last screen:\n${last ? showScreen(last) : '(none)'}`);
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  /** Kills the server (and so every pane's programs get SIGHUP). Safe to call twice. */
  kill(): void {
    if (this.killed) return;
    this.killed = true;
    live.delete(this);
    spawnSync('tmux', ['-L', this.socket, '-f', '/dev/null', 'kill-server'], { env: this.env, timeout: 5_000, stdio: 'ignore' });
    const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
    fs.rmSync(path.join(process.env.TMUX_TMPDIR || '/tmp', `tmux-${uid}`, this.socket), { force: true });
  }
}

function targetArgs(target?: string): string[] {
  return target ? ['-t', target] : [];
}

/** A screen with row numbers, for failure messages. */
export function showScreen(s: Screen): string {
  return s.lines.map((l, i) => `${String(i).padStart(2)}|${l}`).join('\n');
}

/** Kills every server started since the last call; for afterEach. */
export function killAllTmux(): void {
  for (const t of [...live]) t.kill();
}

export function tmuxAvailable(): boolean {
  return spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
}

/** The prompt of the plain outer shell the e2e panes run, for telling it from a session's. */
export const OUTER_PS1 = 'OUTER> ';

/**
 * The outer shell of an e2e pane: bash with no rc files, no history and no
 * line editing (readline would reset terminal modes at every prompt and hide
 * anything an attach failed to put back), with AGENT_BOARD_HOME set, and
 * attaches without their note (AGENT_BOARD_ATTACH_HINT=0). The bare
 * board does not start the demo on its own there (AGENT_BOARD_NO_DEMO): its
 * tests begin with an empty home and no agent CLI on PATH.
 */
export function outerShellCommand(home: string): string[] {
  // Without the attach's note over the first frame (src/runner/stream/attach-hint.ts): the tests compare
  // that frame with the session cell for cell; the note has tests of its own (AGENT_BOARD_ATTACH_HINT=1).
  return ['env', `AGENT_BOARD_HOME=${home}`, 'AGENT_BOARD_NO_DEMO=1', 'AGENT_BOARD_ATTACH_HINT=0', `PS1=${OUTER_PS1}`, 'PROMPT_COMMAND=', 'HISTFILE=/dev/null', 'bash', '--norc', '--noprofile', '--noediting'];
}
