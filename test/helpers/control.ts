import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { CmdAck, Envelope, ReconcileResult } from '../../src/core/protocol/control-protocol.js';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import type { RunnerHello, RunnerMessage } from '../../src/core/protocol/runner-messages.js';
import { controlJournalFile, hostFile } from '../../src/state/paths.js';
import { afterEach, beforeEach } from 'vitest';
import { destroyHome, makeHome, ROOT, waitFor } from './home.js';
import { RawClient } from './raw-client.js';

/** The stdin-recording fixture (test/fixtures/programs/stdin-recorder.mjs). */
export const RECORDER = path.join(ROOT, 'test', 'fixtures', 'programs', 'stdin-recorder.mjs');

/** A folder under the home for a recorder to write into. */
export function recorderDir(home: string, name = 'rec'): string {
  const dir = path.join(home, name);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** `new` arguments that run the recorder. */
export const recorderArgs = (dir: string, ...flags: string[]) => ['--', process.execPath, RECORDER, dir, ...flags];

/** What each recorder process received, by pid (one file per child that ever ran). */
export function receivedByChild(dir: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const f of fs.readdirSync(dir)) {
    const m = /^stdin-(\d+)\.bin$/.exec(f);
    if (m) out.set(Number(m[1]), fs.readFileSync(path.join(dir, f), 'utf8'));
  }
  return out;
}

export const received = (dir: string) => [...receivedByChild(dir).values()].join('');

/** Every read of every recorder process, with when it came. */
export function reads(dir: string): Array<{ t: number; data: string }> {
  const out: Array<{ t: number; data: string }> = [];
  for (const f of fs.readdirSync(dir)) {
    if (!/^reads-\d+\.jsonl$/.test(f)) continue;
    for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) if (line) out.push(JSON.parse(line) as { t: number; data: string });
  }
  return out.sort((a, b) => a.t - b.t);
}

/** Waits until `n` recorder processes have put their terminal in raw mode. */
export const recorderReady = (dir: string, n = 1) => waitFor(`${n} recorder(s) ready`, () => receivedByChild(dir).size >= n);

export function count(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

export const readHost = (home: string, id: string) => JSON.parse(fs.readFileSync(hostFile(home, id), 'utf8')) as HostRecord;

export function journalLines(home: string, id: string): Array<Record<string, unknown>> {
  let text = '';
  try {
    text = fs.readFileSync(controlJournalFile(home, id), 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
}

export const newId = () => `t-${crypto.randomUUID()}`;

/**
 * A raw protocol client that puts envelopes on its commands: seq counted per
 * connection, viewId and instanceId from the runner's hello unless overridden.
 */
export class EnvClient {
  seq = 0;
  readonly hello: RunnerHello;

  constructor(readonly raw: RawClient, readonly clientId = 'c-test') {
    this.hello = raw.messages.find((m) => m.type === 'hello') as RunnerHello;
  }

  static async open(home: string, id: string, hello: Record<string, unknown> = {}): Promise<EnvClient> {
    return new EnvClient(await RawClient.hello(home, id, hello));
  }

  get messages(): RunnerMessage[] {
    return this.raw.messages;
  }

  /** The command with a full envelope; `over` replaces fields (a wrong view, an old seq). */
  frame(msg: Record<string, unknown>, over: Partial<Envelope> = {}): Record<string, unknown> & Envelope {
    const env: Envelope = {
      commandId: over.commandId ?? newId(),
      clientId: over.clientId ?? this.clientId,
      seq: over.seq ?? ++this.seq,
      viewId: over.viewId ?? this.hello.host.id,
      instanceId: over.instanceId ?? this.hello.generation,
    };
    return { ...msg, ...env };
  }

  /** Sends an enveloped command; returns its commandId. */
  send(msg: Record<string, unknown>, over: Partial<Envelope> = {}): string {
    const f = this.frame(msg, over);
    this.raw.send(f);
    return f.commandId;
  }

  /** The first message from index `from` on that matches, as soon as it arrives. */
  waitMsg<T extends RunnerMessage>(pred: (m: RunnerMessage) => boolean, timeoutMs = 10_000, from = 0): Promise<T> {
    return new Promise((resolve, reject) => {
      let i = from;
      const check = (): boolean => {
        for (; i < this.raw.messages.length; i++) {
          if (pred(this.raw.messages[i]!)) {
            done();
            resolve(this.raw.messages[i] as T);
            return true;
          }
        }
        return false;
      };
      const onData = () => void check();
      const onClose = () => {
        if (check()) return;
        done();
        reject(new Error(`connection closed before the message; last: ${JSON.stringify(this.raw.messages.slice(-4)).slice(0, 600)}`));
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no matching message in ${timeoutMs} ms; last: ${JSON.stringify(this.raw.messages.slice(-4)).slice(0, 600)}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.raw.socket.off('data', onData);
        this.raw.socket.off('close', onClose);
      };
      // RawClient's own listener ran first (it was added first): the messages are in.
      this.raw.socket.on('data', onData);
      this.raw.socket.on('close', onClose);
      if (!check() && this.raw.closed) onClose();
    });
  }

  ack(commandId: string, stage: CmdAck['stage'], timeoutMs?: number, from = 0): Promise<CmdAck> {
    return this.waitMsg<CmdAck>((m) => m.type === 'cmd_ack' && m.commandId === commandId && m.stage === stage, timeoutMs, from);
  }

  acks(commandId: string): CmdAck[] {
    return this.raw.messages.filter((m): m is CmdAck => m.type === 'cmd_ack' && m.commandId === commandId);
  }

  async reconcile(commandIds?: string[], over: Partial<Envelope> = {}): Promise<ReconcileResult> {
    const from = this.raw.messages.length;
    const id = this.send({ type: 'reconcile', commandIds }, over);
    return this.waitMsg<ReconcileResult>((m) => m.type === 'reconcile_result' && m.commandId === id, 10_000, from);
  }

  /** A durable prompt: resolves with its acks up to the stage asked for (or a rejection). */
  async prompt(data: string, opts: { submit?: boolean; whenIdle?: boolean; quietMs?: number; commandId?: string; until?: 'accepted' | 'applied' } = {}): Promise<{ commandId: string; ack: CmdAck }> {
    const from = this.raw.messages.length;
    const { until = 'applied', commandId, ...rest } = opts;
    const id = this.send({ type: 'input', data, durable: true, ...rest }, commandId ? { commandId } : {});
    const ack = await this.waitMsg<CmdAck>((m) => m.type === 'cmd_ack' && m.commandId === id && (m.stage === until || m.stage === 'rejected'), 10_000, from);
    return { commandId: id, ack };
  }

  close(): void {
    this.raw.close();
  }
}

/** waitFor for a check that has to ask the runner. */
export async function eventually(what: string, fn: () => Promise<boolean>, timeoutMs = 10_000, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * A fresh home (with a recorder folder) per test, and enveloped clients that
 * are closed after it: `const open = useControlHome((h, d) => ((home = h), (dir = d)));`.
 */
export function useControlHome(set: (home: string, dir: string) => void): (id: string, hello?: Record<string, unknown>) => Promise<EnvClient> {
  let home = '';
  const clients: EnvClient[] = [];
  beforeEach(() => {
    home = makeHome();
    set(home, recorderDir(home));
  });
  afterEach(() => {
    clients.splice(0).forEach((c) => c.close());
    destroyHome(home);
  });
  return async (id: string, hello: Record<string, unknown> = {}) => {
    const c = await EnvClient.open(home, id, hello);
    clients.push(c);
    return c;
  };
}
