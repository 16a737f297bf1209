/**
 * The echo relay against a real runner, a real PTY as the user's terminal and the real addon
 * (src/runner/native/echo_relay.c): a key and its echo go through the runner's thread, not its
 * event loop, so they come while the loop is stuck (a preloaded fixture keeps it busy); with the
 * relay turned off they wait for it. Input of ours (a prompt) and the thread's typing never
 * interleave, and everything the thread read still reaches the rest of the runner.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAttach } from '../../src/client/attach/attach.js';
import type { RunnerConnection } from '../../src/client/link/connection.js';
import { PROTOCOL_VERSION } from '../../src/core/protocol/protocol.js';
import type { RunnerMessage } from '../../src/core/protocol/runner-messages.js';
import { connector, detachKey, freshHomeEachTest, runnerPidOf, runnerText } from '../helpers/direct-terminal.js';
import { rawHeldTerminal, ECHO_LINES } from '../helpers/direct-input.js';
import { BIN, cli, cliEnv, waitFor, waitForPeekLines } from '../helpers/home.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { FakeTerminal } from '../helpers/screen.js';

const FIXTURE = path.resolve('test/fixtures/programs/block-event-loop.cjs');
const ADDON = path.resolve('src/runner/native/build/Release/echo_relay.node');
const RELAYED = 'keys and echo go through the echo relay';
/** The longest the fixture keeps the runner's event loop busy when the test does not let it go (a backstop). */
const BLOCK_MAX_MS = 60_000;

let home: string;
freshHomeEachTest((h) => (home = h));

const log = (id: string) => runnerText(home, id);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function newSession(args: string[], env: Record<string, string> = {}): string {
  const r = cli(home, ['new', ...args], { env });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

/**
 * A session whose runner can be stopped in its tracks (SIGUSR2, block-event-loop.cjs) until the test
 * lets it go (`release`), attached from a raw terminal.
 */
async function blockableAttach(env: Record<string, string> = {}) {
  const mark = path.join(home, 'loop-mark');
  const releaseFile = path.join(home, 'loop-release');
  const id = newSession(['--', 'sh', '-c', ECHO_LINES], { NODE_OPTIONS: `--require ${FIXTURE}`, BLOCK_LOOP_MARK: mark, BLOCK_LOOP_RELEASE: releaseFile, BLOCK_LOOP_MS: String(BLOCK_MAX_MS), ...env });
  const user = await rawHeldTerminal();
  const t = new FakeTerminal(100, 30);
  const done = runAttach({ scheduler: REAL_TIME.scheduler, connect: connector(home, id), input: t.keys, output: t.screen, detachKey: detachKey(), terminal: user.identity });
  await waitFor('the frame', () => user.out.includes('echo-ready'));
  const loop = () => (fs.existsSync(mark) ? fs.readFileSync(mark, 'utf8') : 'running');
  const block = async () => {
    process.kill(runnerPidOf(home), 'SIGUSR2');
    await waitFor('the runner blocked', () => loop() === 'blocked');
  };
  const release = async () => {
    fs.writeFileSync(releaseFile, '');
    await waitFor('the loop free again', () => loop() === 'free');
  };
  return { id, user, done, loop, block, release };
}

/** A session whose program writes every byte it is typed to a file, attached from a raw terminal with the relay running. */
async function attachedToFile() {
  const out = path.join(home, 'typed.bin');
  const id = newSession(['--', 'sh', '-c', `stty raw -echo; echo cat-ready; exec cat > ${out}`]);
  const user = await rawHeldTerminal();
  const t = new FakeTerminal(100, 30);
  // The attach's connection, held too: a test may speak on it as the client.
  let conn: RunnerConnection | null = null;
  const connect = async () => (conn = await connector(home, id)());
  const done = runAttach({ scheduler: REAL_TIME.scheduler, connect, input: t.keys, output: t.screen, detachKey: detachKey(), terminal: user.identity });
  await waitFor('the relay', () => log(id).includes(RELAYED));
  await waitFor('the frame', () => user.out.includes('cat-ready'));
  const typed = () => (fs.existsSync(out) ? fs.readFileSync(out, 'latin1') : '');
  return { id, user, done, typed, conn: () => conn! };
}

/** The next message on `conn` that `pick` takes. */
function nextMessage(conn: RunnerConnection, pick: (m: RunnerMessage) => boolean): Promise<RunnerMessage> {
  return new Promise((resolve) => {
    const sub = conn.onMessage((m) => {
      if (!pick(m)) return;
      sub.dispose();
      resolve(m);
    });
  });
}

describe('the echo relay', () => {
  it('is built (npm ci runs node-gyp on src/runner/native): without it keys and echo wait for the event loop', () => {
    expect(fs.existsSync(ADDON), `${ADDON} is missing: run npm run build:native`).toBe(true);
  });

  it('types a key and writes its echo while the runner\'s event loop cannot run; the runner hears of both after', async () => {
    const s = await blockableAttach();
    expect(log(s.id)).toContain(RELAYED);
    await s.block();
    s.user.p.write('abc\r');
    await waitFor('the echo, with the loop still busy', () => s.user.out.includes('got:abc'));
    expect(s.loop()).toBe('blocked'); // held until we let it go: the echo came without it
    await s.release();
    // What the thread read went on to the rest of the runner: the session's own screen has it.
    await waitForPeekLines(home, s.id, 'the line on the session', (l) => l.includes('got:abc'));
    s.user.p.write('\x1c');
    expect(await s.done).toEqual({ reason: 'detached' });
  });

  it('turned off (AGENT_BOARD_ECHO_RELAY=off), the event loop relays as before: the echo waits for it', async () => {
    const s = await blockableAttach({ AGENT_BOARD_ECHO_RELAY: 'off' });
    await waitFor('the reason in the log', () => /keys and echo go through the event loop: .*AGENT_BOARD_ECHO_RELAY=off/.test(log(s.id)));
    await s.block();
    s.user.p.write('abc\r');
    await sleep(500); // what the relay would have echoed by now (it did in a few ms above)
    expect(s.user.out).not.toContain('got:abc');
    await s.release();
    await waitFor('the echo once the loop is free', () => s.user.out.includes('got:abc'));
    s.user.p.write('\x1c');
    expect(await s.done).toEqual({ reason: 'detached' });
  });

  it('types fast keys in the order they came, each once', async () => {
    // Keys the event loop read as well (it once did: its reader was started in the tick the relay
    // took over) waited for it while the thread typed the next ones: a few in a few hundred
    // came out of order.
    const { id, user, done, typed } = await attachedToFile();
    const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
    let keys = '';
    for (let i = 0; i < 600; i++) {
      const k = alphabet[i % alphabet.length]!;
      keys += k;
      user.p.write(k); // one write each: one read each, as keys come
      await new Promise((r) => setImmediate(r));
    }
    await waitFor('every key in the program', () => typed().length >= keys.length);
    expect(typed()).toBe(keys);
    user.p.write('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
  });

  it('keeps a prompt whole while the user types: every key once, none inside the prompt', async () => {
    const { id, user, done, typed } = await attachedToFile();
    // 256 KiB: far more than the PTY takes at once, so the prompt waits in the runner's queue while keys come.
    const prompt = 'P'.repeat(256 * 1024);
    const send = spawn(process.execPath, [BIN, 'send', id, '-', '--no-enter'], { env: cliEnv(home), stdio: ['pipe', 'ignore', 'pipe'] });
    const sent = new Promise<number>((r) => send.on('exit', (code) => r(code ?? -1)));
    send.stdin.end(prompt);
    const KEYS = 300;
    for (let i = 0; i < KEYS; i++) {
      user.p.write('u');
      await sleep(i % 10 === 0 ? 2 : 0);
    }
    expect(await sent).toBe(0);
    await waitFor('every byte in the program', () => typed().length >= prompt.length + KEYS);
    const got = typed();
    expect(got.length).toBe(prompt.length + KEYS);
    expect(got.replace(/u/g, '')).toBe(prompt);
    expect(/P+/.exec(got)![0].length).toBe(prompt.length); // one run: no key landed inside it
    user.p.write('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
  });

  it('stops typing for a client that said hello again as read-only: its keys are refused, as every other way of typing refuses them', async () => {
    const { user, done, typed, conn } = await attachedToFile();
    user.p.write('a');
    await waitFor('a key typed by the relay', () => typed() === 'a');
    // The relay tells the runner of a typed key TYPED_NOTICE_MS (20 ms) after it, and the runner then
    // sets the thread's flags again: past that, only the hello can make it ask the gate again.
    await sleep(250);
    const again = nextMessage(conn(), (m) => m.type === 'hello');
    conn().send({ type: 'hello', protocol: PROTOCOL_VERSION, client: 'test', readOnly: true });
    await again;
    const refused = nextMessage(conn(), (m) => m.type === 'error');
    user.p.write('b');
    // Typed by the thread, the key would reach the program and no refusal would come.
    const first = await Promise.race([refused, waitFor('the key in the program', () => typed().includes('b') && 'typed')]);
    expect(first).toEqual({ type: 'error', code: 'read_only', message: 'input refused: this client attached read-only' });
    expect(typed()).toBe('a');
    user.p.write('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
  });
});
