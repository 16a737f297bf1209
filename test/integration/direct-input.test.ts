/**
 * Direct input against a real runner and a real PTY as the user's terminal: the runner reads the
 * keys from the terminal itself (the attach client does not see them), stops at the detach key
 * and hands the keys after it back, and never goes on reading a terminal whose client left;
 * when the runner goes, the client reads its keys again.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runAttach } from '../../src/client/attach/attach.js';
import { connector, detachKey, freshHomeEachTest, runnerPidOf, runnerText, userTerminal } from '../helpers/direct-terminal.js';
import { BIN, cliEnv, newSession, peekLines, waitFor, waitForPeekLines } from '../helpers/home.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { FakeTerminal } from '../helpers/screen.js';
import { fdsOn, rawHeldTerminal, readSlave, ECHO_LINES } from '../helpers/direct-input.js';

let home: string;
freshHomeEachTest((h) => (home = h));

const log = (id: string) => runnerText(home, id);
const runnerPid = () => runnerPidOf(home);
const INPUT_FROM = /input comes straight from (\/dev\/pts\/\d+)/;

/** `attach` in a shell in a PTY: the shell holds the terminal (and sleeps) once the attach is gone. */
function attachInShell(id: string) {
  const t = userTerminal('sh', ['-c', `"${process.execPath}" "${BIN}" attach ${id}; echo attach-ended-$?; exec sleep 600`], cliEnv(home));
  /** The attach client's pid: the shell's child. */
  const clientPid = () => Number(fs.readFileSync(`/proc/${t.p.pid}/task/${t.p.pid}/children`, 'utf8').trim().split(' ')[0]);
  return Object.assign(t, { clientPid });
}

describe('direct input', () => {
  it('the runner reads the keys from the terminal: they reach the program while the attach client is stopped', async () => {
    const id = newSession(home, ['--', 'sh', '-c', ECHO_LINES]);
    const user = attachInShell(id);
    await waitFor('direct input', () => INPUT_FROM.test(log(id)));
    await waitFor('the frame', () => user.out.includes('echo-ready'));
    user.p.write('one\r');
    await waitFor('one', () => user.out.includes('got:one'));
    const client = user.clientPid();
    process.kill(client, 'SIGSTOP');
    try {
      // Neither the keys nor their echo go through the client: it cannot run.
      user.p.write('two\r');
      await waitFor('two, with the client stopped', () => user.out.includes('got:two'));
    } finally {
      process.kill(client, 'SIGCONT');
    }
    user.p.write('\x1c');
    await waitFor('detached', () => user.out.includes('attach-ended-0'));
    expect(user.out).toContain('detached from sh-1');
  });

  it('stops at the detach key: the keys before it are typed, those after it go back to the client, later ones stay in the terminal', async () => {
    const id = newSession(home, ['--', 'sh', '-c', ECHO_LINES]);
    const user = await rawHeldTerminal();
    const t = new FakeTerminal(100, 30);
    const putBack: string[] = [];
    Object.assign(t.keys, { unshift: (k: string) => putBack.push(k) });
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect: connector(home, id), input: t.keys, output: t.screen, detachKey: detachKey(), terminal: user.identity });
    await waitFor('direct input', () => INPUT_FROM.test(log(id)));
    await waitFor('the frame', () => user.out.includes('echo-ready'));
    user.p.write('abc\r\x1cxyz\r');
    expect(await done).toEqual({ reason: 'detached' });
    expect(putBack).toEqual(['xyz\r']);
    // Typed before the hand-back; its echo came after it, so it is on the session's screen, not on the terminal.
    await waitForPeekLines(home, 'sh-1', 'abc typed', (l) => l.includes('got:abc'));
    // The reader and the writer are closed (with the fds libuv made of them), and what is typed now is left for the terminal's next reader.
    expect(fdsOn(runnerPid(), user.identity.path)).toBe(0);
    user.p.write('later');
    expect(await readSlave(user.slave, 'later')).toBe('later');
    expect(await peekLines(home, 'sh-1')).not.toContain('got:xyz');
  });

  it('joins a character split between two reads of the terminal', async () => {
    const id = newSession(home, ['--', 'sh', '-c', ECHO_LINES]);
    const user = await rawHeldTerminal();
    const t = new FakeTerminal(100, 30);
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect: connector(home, id), input: t.keys, output: t.screen, detachKey: detachKey(), terminal: user.identity });
    await waitFor('direct input', () => INPUT_FROM.test(log(id)));
    await waitFor('the frame', () => user.out.includes('echo-ready'));
    const e = Buffer.from('é\r');
    user.p.write(e.subarray(0, 1));
    await new Promise((r) => setTimeout(r, 100)); // read on its own
    user.p.write(e.subarray(1));
    await waitFor('the whole character', () => user.out.includes('got:é'));
    user.p.write('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
    expect(user.out).not.toContain('\ufffd');
  });

  it('stops reading at once when the client is killed: the keys typed after it stay in the terminal', async () => {
    const id = newSession(home, ['--', 'sh', '-c', ECHO_LINES]);
    const user = attachInShell(id);
    await waitFor('direct input', () => INPUT_FROM.test(log(id)));
    const tty = INPUT_FROM.exec(log(id))![1]!;
    await waitFor('the frame', () => user.out.includes('echo-ready'));
    const pid = runnerPid();
    expect(fdsOn(pid, tty)).toBe(2); // writes the output, reads the keys
    const slave = fs.openSync(tty, fs.constants.O_RDONLY | fs.constants.O_NOCTTY | fs.constants.O_NONBLOCK);
    try {
      process.kill(user.clientPid(), 'SIGKILL');
      await waitFor('the runner let go', () => fdsOn(pid, tty) === 0);
      user.p.write('mine\r');
      expect(await readSlave(slave, 'mine')).toBe('mine\r');
      expect(user.out).not.toContain('got:mine');
    } finally {
      fs.closeSync(slave);
    }
  });

  it('gives the keys back to the client when the runner is killed: it reads the detach key itself', async () => {
    const id = newSession(home, ['--', 'sh', '-c', ECHO_LINES]);
    const user = attachInShell(id);
    await waitFor('direct input', () => INPUT_FROM.test(log(id)));
    await waitFor('the frame', () => user.out.includes('echo-ready'));
    const pid = runnerPid();
    process.kill(pid, 'SIGKILL');
    await waitFor('runner gone', () => !fs.existsSync(`/proc/${pid}`));
    // The client is reconnecting (to nobody); only a client that reads its stdin again sees the key.
    await new Promise((r) => setTimeout(r, 100));
    user.p.write('\x1c');
    await waitFor('detached', () => user.out.includes('attach-ended-'), 15_000);
    expect(user.out).toContain('attach-ended-0');
    expect(user.out).toContain('detached from sh-1');
  });

  it('stops reading and drops the client when the terminal closes mid-session (one line in the log)', async () => {
    const id = newSession(home, ['--', 'sh', '-c', ECHO_LINES]);
    const user = await rawHeldTerminal();
    const t = new FakeTerminal(100, 30);
    const said: string[] = [];
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect: connector(home, id), input: t.keys, output: t.screen, detachKey: detachKey(), terminal: user.identity, log: (l) => said.push(l), reconnectDelaysMs: [50, 50, 50] });
    await waitFor('direct input', () => INPUT_FROM.test(log(id)));
    await waitFor('the frame', () => user.out.includes('echo-ready'));
    fs.closeSync(user.slave);
    user.p.kill('SIGKILL'); // the terminal goes away while the runner reads it
    await waitFor('logged', () => log(id).includes(`its terminal ${user.identity.path} failed`));
    await waitFor('the runner let go', () => fdsOn(runnerPid(), user.identity.path) === 0);
    // The client reconnects; the terminal's holder is gone, so output and keys go over the socket.
    await waitFor('fallback', () => said.some((l) => l.includes('refused')));
    t.type('sock\r');
    await waitFor('typed over the socket', () => t.screen.drawn.includes('got:sock'));
    t.type('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
    expect(log(id).match(/failed \(/g)).toHaveLength(1);
  });
});
