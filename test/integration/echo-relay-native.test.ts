/**
 * The echo relay's addon (src/runner/native/echo_relay.c) on its own, between two real PTYs: one
 * stands for the client's terminal (the test writes keys into its master and reads what the
 * thread wrote), the other for the program's (the test is the program: it holds the slave). Each
 * flag does its one thing and nothing else, and a thread that cannot do its part hands the bytes
 * over instead: what JavaScript builds the relay's ordering on (src/runner/direct/echo-relay.ts).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as pty from 'node-pty';
import { afterEach, describe, expect, it } from 'vitest';
import { READ_PTY, READ_TTY, WRITE_PTY, WRITE_TTY, type NativeRelay, type Taken } from '../../src/runner/direct/echo-relay.js';
import { holdReads, internalsOf, openMasterFd, slavePath } from '../../src/runner/pty/pty-internals.js';
import { waitFor } from '../helpers/home.js';

const native = createRequire(import.meta.url)(path.resolve('src/runner/native/build/Release/echo_relay.node')) as NativeRelay;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0).reverse()) c();
});

/**
 * A raw PTY whose slave the test holds (node-pty's reads of the master stopped when `hold`), or
 * that runs `program` (a shell command) on it, after `ok`.
 */
function rawPty(hold: boolean, program = 'exec sleep 600') {
  const p = pty.spawn('sh', ['-c', `stty raw -echo; echo ok; ${program}`], { name: 'xterm', cols: 80, rows: 24, encoding: null });
  let seen = Buffer.alloc(0);
  p.onData((d) => (seen = Buffer.concat([seen, Buffer.from(d as unknown as Buffer)])));
  cleanups.push(() => p.kill('SIGKILL'));
  const ready = waitFor('the raw pty', () => seen.includes('ok'));
  return {
    p,
    seen: () => seen,
    async slave() {
      await ready;
      const fd = fs.openSync(slavePath(internalsOf(p))!, fs.constants.O_RDWR | fs.constants.O_NOCTTY | fs.constants.O_NONBLOCK);
      cleanups.push(() => fs.closeSync(fd));
      if (hold) expect(holdReads(internalsOf(p))).not.toBeNull();
      return fd;
    },
    master: () => openMasterFd(internalsOf(p))!,
  };
}

/** Reads what is there on a non-blocking fd. */
function readNow(fd: number): Buffer {
  const out: Buffer[] = [];
  const buf = Buffer.alloc(65536);
  for (;;) {
    try {
      const n = fs.readSync(fd, buf);
      if (n <= 0) break;
      out.push(Buffer.from(buf.subarray(0, n)));
    } catch {
      break; // EAGAIN: nothing more
    }
  }
  return Buffer.concat(out);
}

/** Everything read from a non-blocking fd so far. */
function reader(fd: number) {
  let all = Buffer.alloc(0);
  return () => (all = Buffer.concat([all, readNow(fd)])).toString('latin1');
}

/**
 * A relay between two raw PTYs. With `echoing`, the program's PTY runs that command (which
 * echoes) instead of the test holding its slave, and every wake takes at once, as the runner
 * does (EchoRelay.wake).
 */
async function relayBetween(stopBytes = '\x1c', echoing?: string) {
  const terminal = rawPty(false); // the client's terminal: the test types into its master and sees what is written to it
  const program = echoing ? rawPty(false, echoing) : rawPty(true); // the program's: the test holds the slave as the program would
  const termSlave = await terminal.slave();
  let progSlave = -1;
  if (echoing) {
    await waitFor('the program up', () => program.seen().includes('ok'));
    expect(holdReads(internalsOf(program.p))).not.toBeNull();
  } else progSlave = await program.slave();
  const wakeTimes: number[] = [];
  const taken: Taken[] = [];
  /** When each take that found something was made (in the wake, for an echoing program). */
  const takenAt: number[] = [];
  const takeAll = () => {
    const t = native.take(relay);
    if (t) (taken.push(t), takenAt.push(performance.now()));
    return t;
  };
  const relay = native.open(program.master(), termSlave, termSlave, Buffer.from(stopBytes, 'latin1'), () => {
    wakeTimes.push(performance.now());
    if (echoing) takeAll();
  });
  cleanups.push(() => native.close(relay));
  return { terminal, program, progSlave, typed: progSlave < 0 ? () => '' : reader(progSlave), relay, wakes: () => wakeTimes.length, wakeTimes, takeAll, taken, takenAt };
}

describe('the echo relay addon', () => {
  it('writes output to the terminal the moment it reads it, and says how much of it it wrote', async () => {
    const r = await relayBetween();
    native.set(r.relay, READ_PTY | WRITE_TTY);
    fs.writeSync(r.progSlave, 'echo-one');
    await waitFor('on the terminal', () => r.terminal.seen().includes('echo-one'));
    await waitFor('the wake', () => r.wakes() > 0);
    const t = r.takeAll()!;
    expect(t[0]!.toString()).toBe('echo-one');
    expect(t[1]).toBe(8);
  });

  it('without WRITE_TTY reads but writes nothing, and refuses WRITE_TTY until what it did not write is taken', async () => {
    const r = await relayBetween();
    native.set(r.relay, READ_PTY);
    fs.writeSync(r.progSlave, 'held-back');
    await waitFor('the wake', () => r.wakes() > 0);
    expect(native.set(r.relay, READ_PTY | WRITE_TTY)).toBe(READ_PTY); // its bytes would come first
    const t = r.takeAll()!;
    expect([t[0]!.toString(), t[1]]).toEqual(['held-back', 0]);
    expect(r.terminal.seen().toString()).not.toContain('held-back');
    expect(native.set(r.relay, READ_PTY | WRITE_TTY)).toBe(READ_PTY | WRITE_TTY);
  });

  it('does not write output that is not valid UTF-8, and stops writing until told again', async () => {
    const r = await relayBetween();
    native.set(r.relay, READ_PTY | WRITE_TTY);
    fs.writeSync(r.progSlave, Buffer.from([0x61, 0xff, 0x62]));
    await waitFor('the wake', () => r.wakes() > 0);
    const t = r.takeAll()!;
    expect([...t[0]!]).toEqual([0x61, 0xff, 0x62]);
    expect(t[1]).toBe(0);
    // A character split between two reads is valid: the thread follows it across them.
    native.set(r.relay, READ_PTY | WRITE_TTY);
    fs.writeSync(r.progSlave, Buffer.from('é').subarray(0, 1));
    await waitFor('the first byte', () => r.takeAll()?.[1] === 1);
    fs.writeSync(r.progSlave, Buffer.from('é').subarray(1));
    await waitFor('the second byte', () => r.takeAll()?.[1] === 1);
    await waitFor('the whole character on the terminal', () => r.terminal.seen().includes('é'));
  });

  it('types plain keys; a byte a detach key starts with, or a non-ASCII one, is handed over and the reading waits', async () => {
    const r = await relayBetween('\x1c');
    native.set(r.relay, READ_TTY | WRITE_PTY);
    r.terminal.p.write('abc');
    await waitFor('typed', () => r.typed() === 'abc');
    await waitFor('counted', () => r.takeAll()?.[2] === 3);
    r.terminal.p.write('x\x1cy');
    await waitFor('handed over', () => r.takeAll()?.[3]?.toString() === 'x\x1cy');
    r.terminal.p.write('later');
    await new Promise((res) => setTimeout(res, 200));
    expect(r.takeAll()).toBeUndefined(); // not read: it waits until JavaScript has looked
    expect(r.typed()).toBe('abc');
    native.set(r.relay, READ_TTY | WRITE_PTY);
    await waitFor('read again', () => r.typed() === 'abclater');
    r.terminal.p.write('é');
    await waitFor('non-ASCII handed over', () => r.takeAll()?.[3]?.toString() === 'é');
  });

  it('tells JavaScript of keys it typed only when it reads their echo: one wake for a key and its echo', async () => {
    // The program echoes each read 5 ms later, well inside the 20 ms the thread holds its notice
    // of the keys (TYPED_NOTICE_MS); told at once, each key woke JavaScript once more.
    const echo = `exec ${JSON.stringify(process.execPath)} -e 'process.stdin.on("data", (d) => setTimeout(() => process.stdout.write(d), 5))'`;
    const r = await relayBetween('\x1c', echo);
    native.set(r.relay, READ_PTY | WRITE_TTY | READ_TTY | WRITE_PTY);
    const keys = 'vwxyzvwxyzvwxyzvwxyz';
    const shown = () => Buffer.concat(r.taken.map((t) => t[0] ?? Buffer.alloc(0))).toString();
    const typedAt: number[] = [];
    for (let i = 0; i < keys.length; i++) {
      typedAt.push(performance.now());
      r.terminal.p.write(keys[i]!);
      await waitFor(`the echo of key ${i + 1}`, () => shown() === keys.slice(0, i + 1), 10_000, 2);
    }
    expect(r.taken.reduce((n, t) => n + t[2], 0)).toBe(keys.length); // every key typed by the thread, and counted
    await waitFor('each echo on the terminal', () => r.terminal.seen().toString().includes(keys));
    // A notice of keys without their echo comes only once TYPED_NOTICE_MS is up (a program slower
    // than that, as on a busy machine, gets one), never at once: told at once, every key woke
    // JavaScript before its echo. (How many wakes there were is the machine's: how late each echo.)
    const early = r.taken.flatMap((t, k) => {
      const sinceKey = r.takenAt[k]! - Math.max(...typedAt.filter((at) => at <= r.takenAt[k]!));
      return t[2] > 0 && !t[0]?.length && sinceKey < 15 ? [`${t[2]} key(s) told ${sinceKey.toFixed(1)} ms after typing, without an echo`] : [];
    });
    expect(early).toEqual([]);
    console.log(`${keys.length} keys: ${r.wakes()} wakes, ${r.taken.filter((t) => t[2] > 0 && !t[0]?.length).length} of them a notice without the echo`);
  });

  it('tells JavaScript of keys that bring no echo too, TYPED_NOTICE_MS (20 ms) after', async () => {
    const r = await relayBetween();
    native.set(r.relay, READ_TTY | WRITE_PTY);
    const t0 = performance.now();
    r.terminal.p.write('abc');
    await waitFor('typed', () => r.typed() === 'abc', 10_000, 1);
    await waitFor('the wake', () => r.wakes() > 0, 10_000, 1);
    expect(r.wakeTimes[0]! - t0).toBeGreaterThanOrEqual(15); // not at once; the bound above is the wait's
    expect(r.takeAll()?.[2]).toBe(3);
    expect(r.wakes()).toBe(1);
  });

  it('after a write of ours the PTY did not take whole, keys are handed over, not typed past it', async () => {
    const r = await relayBetween();
    native.set(r.relay, READ_TTY | WRITE_PTY);
    const big = Buffer.alloc(1 << 20, 'P'); // more than a PTY holds: the program (the test) is not reading
    const n = native.writePty(r.relay, big);
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(big.length);
    r.terminal.p.write('k');
    await waitFor('the key handed over', () => r.takeAll()?.[3]?.toString() === 'k');
    await waitFor('what the PTY took', () => r.typed().length >= n);
    expect(r.typed()).toBe('P'.repeat(n));
  });

  it('close joins the thread and reads what the PTY still holds, for the last take', async () => {
    const r = await relayBetween();
    native.set(r.relay, 0);
    fs.writeSync(r.progSlave, 'last-words');
    await new Promise((res) => setTimeout(res, 100));
    native.set(r.relay, READ_PTY); // set, then closed before the thread may have read: either way close finds it
    native.close(r.relay);
    const rest: Buffer[] = [];
    for (let t = native.take(r.relay); t; t = native.take(r.relay)) if (t[0]) rest.push(t[0]);
    const all = Buffer.concat([...r.taken.map((t) => t[0] ?? Buffer.alloc(0)), ...rest]).toString();
    expect(all).toBe('last-words');
    expect(native.set(r.relay, READ_PTY)).toBe(0); // closed: it does nothing more
  });
});
