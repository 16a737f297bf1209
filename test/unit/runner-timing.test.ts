/**
 * The runner's timed behaviour on the fake clock (test/helpers/fake-time.ts): each class takes
 * its Clock and Scheduler, so nothing here waits for real time except xterm's own parse.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HEARTBEAT_INTERVAL_MS } from '../../src/core/protocol/host-status.js';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import type { CmdAck } from '../../src/core/protocol/control-protocol.js';
import { CHAT_POLL_MS, ChatWatch } from '../../src/runner/wakes/chat-watch.js';
import { DEFAULT_QUIET_MS, DurableInputs } from '../../src/runner/control/durable-inputs.js';
import { HOST_WRITE_COALESCE_MS, HostWriter } from '../../src/runner/session/host-writer.js';
import { CommandJournal } from '../../src/runner/control/journal.js';
import { JIGGLE_RESTORE_MS, Redraw } from '../../src/runner/pty/redraw.js';
import { SYNC_OUTPUT_MAX_WAIT_MS, TerminalModel } from '../../src/runner/model/terminal-model.js';
import { FakeTime } from '../helpers/fake-time.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-timing-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('HostWriter', () => {
  function writer(time: FakeTime) {
    const file = path.join(dir, 'host.json');
    const w = new HostWriter({ file, record: { id: 'x', name: 'x', revision: 0 } as HostRecord, clock: time, scheduler: time, onError: (e) => { throw e; } });
    const pushed: HostRecord[] = [];
    w.onWrite((r) => void pushed.push(r));
    const onDisk = () => JSON.parse(fs.readFileSync(file, 'utf8')) as HostRecord;
    return { w, pushed, onDisk, file };
  }

  it('coalesces a burst of updates into one write, HOST_WRITE_COALESCE_MS after the first', () => {
    const time = new FakeTime();
    const { w, pushed, onDisk } = writer(time);
    w.update({ cols: 100 });
    time.advance(100);
    w.update({ rows: 40 });
    time.advance(HOST_WRITE_COALESCE_MS - 101);
    expect(pushed).toHaveLength(0);
    time.advance(1);
    expect(pushed).toHaveLength(1);
    expect(onDisk()).toMatchObject({ cols: 100, rows: 40, updatedAt: new Date(time.now()).toISOString() });
    time.advance(10 * HOST_WRITE_COALESCE_MS);
    expect(pushed).toHaveLength(1);
    w.dispose();
  });

  it('a status change writes at once', () => {
    const time = new FakeTime();
    const { w, pushed } = writer(time);
    w.update({ status: 'running' }, true);
    expect(pushed.map((r) => r.status)).toEqual(['running']);
    w.dispose();
  });

  it('the heartbeat stamps the file every HEARTBEAT_INTERVAL_MS without waking watchers, and stops on dispose', () => {
    const time = new FakeTime();
    const { w, pushed, onDisk, file } = writer(time);
    w.startHeartbeat();
    time.advance(HEARTBEAT_INTERVAL_MS - 1);
    expect(fs.existsSync(file)).toBe(false);
    time.advance(1);
    expect(onDisk().heartbeatAt).toBe(new Date(time.now()).toISOString());
    time.advance(HEARTBEAT_INTERVAL_MS);
    expect(onDisk().heartbeatAt).toBe(new Date(time.now()).toISOString());
    expect(pushed).toHaveLength(0);
    w.dispose();
    expect(time.pending).toBe(0);
    const before = onDisk().heartbeatAt;
    time.advance(3 * HEARTBEAT_INTERVAL_MS);
    expect(onDisk().heartbeatAt).toBe(before);
  });

  it('output stamps lastOutputAt at the coalesced write, with the decoration of that moment', () => {
    const time = new FakeTime();
    const file = path.join(dir, 'host.json');
    let line = 'a';
    const w = new HostWriter({ file, record: { id: 'x', name: 'x' } as HostRecord, clock: time, scheduler: time, onError: () => undefined, decorate: () => ({ previewLine: line }) });
    w.noteOutput();
    line = 'b';
    time.advance(HOST_WRITE_COALESCE_MS);
    const rec = JSON.parse(fs.readFileSync(file, 'utf8')) as HostRecord;
    expect(rec).toMatchObject({ previewLine: 'b', lastOutputAt: new Date(time.now()).toISOString() });
    w.dispose();
  });
});

describe('TerminalModel', () => {
  const parsed = async (m: TerminalModel, seq: number) => {
    while (m.parsedSeq < seq) await new Promise((r) => setImmediate(r));
  };

  it('serves a snapshot waiter inside a synchronized update only at SYNC_OUTPUT_MAX_WAIT_MS, by its clock', async () => {
    const time = new FakeTime();
    const m = new TerminalModel({ cols: 20, rows: 4, scrollback: 10, clock: time, scheduler: time });
    m.write('\x1b[?2026hhalf', 1);
    await parsed(m, 1);
    let served = false;
    m.whenSettled(() => (served = true));
    time.advance(SYNC_OUTPUT_MAX_WAIT_MS - 1);
    expect(served).toBe(false);
    time.advance(1);
    expect(served).toBe(true);
    m.dispose();
  });

  it('serves at once when the update ends before the deadline, and leaves no timer behind', async () => {
    const time = new FakeTime();
    const m = new TerminalModel({ cols: 20, rows: 4, scrollback: 10, clock: time, scheduler: time });
    m.write('\x1b[?2026hhalf', 1);
    await parsed(m, 1);
    let served = false;
    m.whenSettled(() => (served = true));
    time.advance(10);
    m.write(' done\x1b[?2026l', 2);
    await parsed(m, 2);
    expect(served).toBe(true);
    expect(time.pending).toBe(0);
    m.dispose();
  });
});

describe('ChatWatch', () => {
  it('finds lines by its poll every CHAT_POLL_MS when there is nothing to watch yet, and stops on dispose', () => {
    const time = new FakeTime();
    const room = path.join(dir, 'room'); // not there yet: no fs.watch, only the poll
    const file = path.join(room, 'chat.jsonl');
    const got: string[] = [];
    const errors: string[] = [];
    const w = new ChatWatch({ file, onRecords: (rs) => got.push(...rs.map((r) => r.text)), onError: (m) => void errors.push(m), scheduler: time });
    expect(w.start()).toEqual([]);
    fs.mkdirSync(room);
    const rec = { id: 1, ts: new Date(time.now()).toISOString(), from: 'a', kind: 'human', text: 'hello', mentions: [] };
    fs.writeFileSync(file, JSON.stringify(rec) + '\n');
    time.advance(CHAT_POLL_MS - 1);
    expect(got).toEqual([]);
    time.advance(1);
    expect(got).toEqual(['hello']);
    w.dispose();
    expect(time.pending).toBe(0);
    fs.appendFileSync(file, JSON.stringify({ ...rec, id: 2, text: 'again' }) + '\n');
    time.advance(5 * CHAT_POLL_MS);
    expect(got).toEqual(['hello']);
    expect(errors).toEqual([]);
  });
});

describe('Redraw', () => {
  it('a size jiggle takes the PTY a column narrower and back after JIGGLE_RESTORE_MS; one at a time', () => {
    const time = new FakeTime();
    const sizes: string[] = [];
    const r = new Redraw({ resize: (c, rows) => void sizes.push(`${c}x${rows}`), foregroundGroup: () => null }, () => ({ agent: 'pi', cols: 80, rows: 24 }), time);
    r.jiggle();
    r.jiggle(); // in flight already
    expect(sizes).toEqual(['79x24']);
    time.advance(JIGGLE_RESTORE_MS - 1);
    expect(sizes).toEqual(['79x24']);
    time.advance(1);
    expect(sizes).toEqual(['79x24', '80x24']);
    r.jiggle();
    r.dispose();
    time.advance(JIGGLE_RESTORE_MS);
    expect(sizes).toEqual(['79x24', '80x24', '79x24']); // disposed: the restore timer went with it
  });
});

describe('DurableInputs', () => {
  function make(time: FakeTime, applyDelayMs = 0) {
    let lastOutput = -Infinity;
    const written: string[] = [];
    const acks: CmdAck[] = [];
    const inputs = new DurableInputs({
      target: {
        generation: 'g',
        exited: false,
        bracketedPaste: () => false,
        write: (d) => void written.push(d),
        enterDelayMs: () => 150,
        enterAfterEcho: () => false,
        quietFor: () => time.now() - lastOutput,
        shows: () => false,
      },
      journal: new CommandJournal(path.join(dir, 'journal.jsonl')),
      ack: (a) => void acks.push(a),
      log: () => undefined,
      clock: time,
      scheduler: time,
      applyDelayMs,
    });
    return { inputs, written, acks, print: () => (lastOutput = time.now()) };
  }

  it('the Enter comes the kind delay after the text, on the fake clock', () => {
    const time = new FakeTime();
    const { inputs, written, acks } = make(time);
    inputs.accept('p', 'c', { type: 'input', data: 'hi', durable: true, submit: true });
    expect(written).toEqual(['hi']);
    time.advance(149);
    expect(written).toEqual(['hi']);
    time.advance(1);
    expect(written).toEqual(['hi', '\r']);
    expect(acks.map((a) => a.stage)).toEqual(['accepted', 'applied']);
    expect(time.pending).toBe(0);
  });

  it('the test delay holds a prompt between accept and write', () => {
    const time = new FakeTime();
    const { inputs, written } = make(time, 500);
    inputs.accept('p', 'c', { type: 'input', data: 'held', durable: true });
    time.advance(499);
    expect(written).toEqual([]);
    time.advance(1);
    expect(written).toEqual(['held']);
  });

  it('a when-idle prompt waits for DEFAULT_QUIET_MS of quiet; dispose drops every timer', () => {
    const time = new FakeTime();
    const { inputs, written, print } = make(time);
    print();
    inputs.accept('q', 'c', { type: 'input', data: 'later', durable: true, whenIdle: true });
    time.advance(DEFAULT_QUIET_MS - 1);
    print();
    time.advance(DEFAULT_QUIET_MS - 1);
    expect(written).toEqual([]);
    time.advance(1);
    expect(written).toEqual(['later']);
    inputs.accept('r', 'c', { type: 'input', data: 'never', durable: true, whenIdle: true, quietMs: 10_000 });
    expect(time.pending).toBe(1);
    inputs.dispose();
    expect(time.pending).toBe(0);
  });
});
