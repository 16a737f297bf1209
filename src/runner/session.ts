import fs from 'node:fs';
import { OutputRing } from '../core/output-ring.js';
import { agentKind } from '../core/agent-kinds.js';
import { MIN_COLS, PROTOCOL_VERSION, type ClientMessage, type HostRecord } from '../core/protocol.js';
import { encodeFrame } from '../core/frame-decoder.js';
import { checkSessionName } from '../core/session-ref.js';
import { clampSize } from '../core/size.js';
import { ClientConn, clientBacklogLimit } from './client-conn.js';
import type { HostWriter } from './host-writer.js';
import type { Logger } from './log.js';
import { PtyHost, type ChildExit } from './pty-host.js';
import { sendSnapshot } from './snapshots.js';
import { TerminalModel } from './terminal-model.js';

export interface SessionDeps {
  host: HostWriter;
  log: Logger;
  generation: string;
  env: Record<string, string>;
  finalScreenFile: string;
  /** Called once everything is flushed after the child exited. */
  onFinished: () => void;
}

/**
 * How long a size jiggle keeps the PTY a column narrower. Long enough for a
 * busy Node program to handle the first SIGWINCH and read the odd size (Node
 * ignores a SIGWINCH whose size did not change); the recordings' operator
 * took about 150 ms.
 */
export const JIGGLE_RESTORE_MS = 100;

const ALLOWED_SIGNALS = new Set(['SIGTERM', 'SIGKILL', 'SIGINT', 'SIGHUP', 'SIGQUIT', 'SIGUSR1', 'SIGUSR2', 'SIGCONT', 'SIGSTOP', 'SIGWINCH']);

/**
 * One session inside its runner: the child in its PTY, the headless model,
 * the output ring and the clients. Output is read as fast as the child writes
 * it; only the model's parser backlog may pause the PTY, never a client.
 */
export class Session {
  readonly ring = new OutputRing();
  readonly model: TerminalModel;
  readonly pty: PtyHost;
  readonly clients = new Set<ClientConn>();
  private exit: ChildExit | null = null;
  private jiggleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: SessionDeps) {
    const rec = deps.host.record;
    this.model = new TerminalModel({
      cols: rec.cols,
      rows: rec.rows,
      scrollback: rec.scrollback,
      onPressure: (paused) => (paused ? this.pty.pause() : this.pty.resume()),
    });
    this.pty = new PtyHost({ command: rec.command, args: rec.args, cwd: rec.cwd, env: deps.env, cols: rec.cols, rows: rec.rows });
    this.pty.onData((data) => this.onOutput(data));
    this.pty.onExit((e) => this.onChildExit(e));
    deps.host.decorate = () => ({ previewLine: lastScreenLine(this.model) });
    deps.host.onWrite = (host) => {
      let frame: string | null = null;
      for (const c of this.clients) {
        if (!c.watchesStatus) continue;
        frame ??= encodeFrame({ type: 'status', host });
        c.sendEncoded(frame);
      }
    };
    deps.host.update({ childPid: this.pty.pid, status: 'running', generation: deps.generation }, true);
    deps.log(`child ${this.pty.pid} started: ${rec.command} ${rec.args.join(' ')}`);
  }

  get record(): HostRecord {
    return this.deps.host.record;
  }

  get generation(): string {
    return this.deps.generation;
  }

  get exited(): ChildExit | null {
    return this.exit;
  }

  private onOutput(data: string): void {
    const chunk = this.ring.push(data);
    this.model.write(data, chunk.seq + 1);
    this.deps.host.noteOutput();
    let frame: string | null = null; // encoded once, whatever the number of clients
    for (const c of this.clients) {
      if (c.stream !== 'live' || c.cursor !== chunk.seq) continue;
      frame ??= encodeFrame({ type: 'output', seq: chunk.seq, data });
      c.sendEncoded(frame);
      c.cursor = chunk.seq + 1;
      if (c.backlog > clientBacklogLimit(this.model.term.cols, this.model.term.rows)) this.fallBehind(c);
    }
  }

  /** The client cannot keep up: stop sending, and re-snapshot it once its socket drains. */
  private fallBehind(c: ClientConn): void {
    c.stream = 'lagging';
    this.deps.log(`client ${c.id} fell behind (${c.backlog} bytes queued); will re-snapshot`);
    c.socket.once('drain', () => {
      if (c.stream === 'lagging' && !c.closed) sendSnapshot(this, c, 0);
    });
  }

  attach(c: ClientConn): void {
    this.clients.add(c);
  }

  detach(c: ClientConn): void {
    if (!this.clients.delete(c)) return;
    // The size follows the most recently active interactive client that is left.
    if (c.size && !this.exit) {
      const next = [...this.clients].filter((o) => o.size && !o.readOnly).sort((a, b) => b.lastActive - a.lastActive)[0];
      if (next?.size) this.applySize(next.size.cols, next.size.rows);
    }
  }

  handle(c: ClientConn, msg: ClientMessage): void {
    if (msg.type !== 'hello' && !c.greeted) {
      c.send({ type: 'error', code: 'not_hello', message: 'send hello first' });
      return;
    }
    switch (msg.type) {
      case 'hello':
        if (msg.protocol !== PROTOCOL_VERSION) {
          c.finish({ type: 'error', code: 'unsupported_protocol', message: `runner speaks protocol ${PROTOCOL_VERSION}, client ${msg.protocol}` });
          return;
        }
        c.greeted = true;
        c.readOnly = msg.readOnly ?? false;
        c.name = msg.client ?? '';
        c.send({ type: 'hello', protocol: PROTOCOL_VERSION, generation: this.generation, host: this.record });
        return;
      case 'status':
        c.send({ type: 'status', host: this.record });
        return;
      case 'subscribe_status':
        c.watchesStatus = true;
        c.send({ type: 'status', host: this.record });
        return;
      case 'subscribe_terminal':
        if (msg.sinceSeq !== undefined && this.ring.holds(msg.sinceSeq)) {
          c.send({ type: 'replay_begin', fromSeq: msg.sinceSeq, generation: this.generation });
          c.stream = 'live';
          c.cursor = msg.sinceSeq;
          for (const chunk of this.ring.since(msg.sinceSeq) ?? []) c.send({ type: 'output', seq: chunk.seq, data: chunk.data });
          c.cursor = this.ring.nextSeq;
        } else {
          sendSnapshot(this, c, msg.scrollback ?? 0);
        }
        return;
      case 'detach':
        c.finish({ type: 'bye', reason: 'detach' });
        return;
      case 'rename': {
        const bad = checkSessionName(msg.name);
        if (bad) {
          c.send({ type: 'error', code: 'invalid_message', message: bad });
          return;
        }
        this.deps.host.update({ name: msg.name }, true);
        c.send({ type: 'status', host: this.record });
        return;
      }
    }
    // Everything below changes the session: read-only clients may not, and an exited child cannot.
    if (c.readOnly) {
      c.send({ type: 'error', code: 'read_only', message: `${msg.type} refused: this client attached read-only` });
      return;
    }
    if (this.exit) {
      c.send({ type: 'error', code: 'session_exited', message: `${msg.type} refused: the session has exited` });
      return;
    }
    c.lastActive = Date.now();
    switch (msg.type) {
      case 'input':
        if (c.size) this.applySize(c.size.cols, c.size.rows);
        this.pty.write(msg.data);
        return;
      case 'resize': {
        c.size = clampSize(msg.cols, msg.rows);
        this.applySize(c.size.cols, c.size.rows);
        return;
      }
      case 'interrupt':
        this.pty.write('\x03');
        return;
      case 'redraw':
        this.jiggle();
        return;
      case 'terminate': {
        const sig = msg.signal?.toUpperCase().replace(/^(SIG)?/, 'SIG');
        if (!sig || sig === 'SIGTERM') {
          this.deps.log(`terminate requested by client ${c.id}`);
          this.pty.terminate();
        } else if (ALLOWED_SIGNALS.has(sig)) {
          this.deps.log(`${sig} requested by client ${c.id}`);
          this.pty.signal(sig as NodeJS.Signals);
        } else {
          c.send({ type: 'error', code: 'invalid_message', message: `unknown signal "${msg.signal}"; use one of ${[...ALLOWED_SIGNALS].join(', ')}` });
        }
        return;
      }
    }
  }

  /**
   * Makes the program redraw without changing what anyone sees: `size` takes
   * the PTY one column narrower and back after JIGGLE_RESTORE_MS (the model
   * keeps its size, so nothing reflows); `winch` signals the foreground
   * process group with the size unchanged, as dtach does.
   */
  private jiggle(): void {
    const kind = agentKind(this.record.agent);
    if (kind.jiggle === 'winch') {
      const pgrp = this.pty.foregroundGroup();
      if (pgrp) {
        try {
          process.kill(-pgrp, 'SIGWINCH');
        } catch {
          // the group just went away
        }
      }
      return;
    }
    if (this.jiggleTimer) return; // one in flight already does the job
    const { cols, rows } = this.record;
    this.pty.resize(Math.max(MIN_COLS, cols - 1), rows);
    this.jiggleTimer = setTimeout(() => {
      this.jiggleTimer = null;
      this.pty.resize(this.record.cols, this.record.rows);
    }, JIGGLE_RESTORE_MS);
  }

  /** Resize PTY and model together; the host file follows. */
  applySize(cols: number, rows: number): void {
    const size = clampSize(cols, rows);
    if (size.cols === this.record.cols && size.rows === this.record.rows) return;
    this.pty.resize(size.cols, size.rows);
    this.model.resize(size.cols, size.rows);
    this.deps.host.update(size);
  }

  private onChildExit(e: ChildExit): void {
    this.exit = e;
    this.deps.log(`child exited: code ${e.code} signal ${e.signal}`);
    // Let the model take in the last output, keep the final screen, then say goodbye.
    this.model.whenSettled(() => {
      this.saveFinalScreen();
      this.deps.host.update({ status: 'exited', exitCode: e.code, exitSignal: e.signal, childPid: null }, true);
      for (const c of this.clients) {
        // Live clients get what they have not seen yet before the exit.
        if (c.stream === 'live') {
          for (const chunk of this.ring.since(c.cursor) ?? []) c.send({ type: 'output', seq: chunk.seq, data: chunk.data });
        }
        c.send({ type: 'exit', code: e.code, signal: e.signal });
        c.finish({ type: 'bye', reason: 'exit' });
      }
      this.deps.onFinished();
    });
  }

  private saveFinalScreen(): void {
    const file = this.deps.finalScreenFile;
    try {
      const history = this.model.historySlice(0, this.model.historyLength);
      fs.writeFileSync(`${file}.tmp`, history + this.model.screenFrame(), { mode: 0o600 });
      fs.renameSync(`${file}.tmp`, file);
    } catch (err) {
      this.deps.log(`could not save the final screen: ${(err as Error).message}`);
    }
  }
}

/** The last line on the screen with something on it, for one-line previews. */
export const PREVIEW_LINE_MAX = 200;
function lastScreenLine(model: TerminalModel): string {
  const buf = model.term.buffer.active;
  for (let y = model.term.rows - 1; y >= 0; y--) {
    const text = buf.getLine(buf.viewportY + y)?.translateToString(true).trim();
    if (text) return text.slice(0, PREVIEW_LINE_MAX);
  }
  return '';
}
