/**
 * Direct output against a real runner and a real PTY as the user's terminal: the runner writes
 * the session's output to the terminal itself, and hands it back cleanly on detach, on the
 * program's exit, when the runner is killed, when the client is killed and when the terminal
 * closes mid-output.
 */
import fs from 'node:fs';
import pty from 'node-pty';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAttach } from '../../src/client/attach.js';
import { RunnerConnection } from '../../src/client/connection.js';
import { terminalIdentity } from '../../src/client/tty-identity.js';
import { parseDetachKey } from '../../src/core/terminal/detach-key.js';
import { runnerLog, socketPath } from '../../src/state/paths.js';
import { bootId, processStartTime } from '../../src/state/proc-identity.js';
import { BIN, cli, cliAsync, cliEnv, destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';
import { RawClient } from '../helpers/raw-client.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { FakeTerminal } from '../helpers/screen.js';
import { Terminal } from '../../src/state/headless-terminal.js';
import { openClientTerminal } from '../../src/runner/tty-check.js';

let home: string;
const ptys: pty.IPty[] = [];
beforeEach(() => {
  home = makeHome();
});
afterEach(() => {
  for (const p of ptys.splice(0)) {
    try {
      p.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  destroyHome(home);
});

const detachKey = () => {
  const k = parseDetachKey('ctrl-\\');
  if (!k.ok) throw new Error(k.message);
  return k.key;
};

/** A PTY standing for the user's terminal, with everything written to it kept. */
function userTerminal(file: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const p = pty.spawn(file, args, { name: 'xterm-256color', cols: 100, rows: 30, env: env as Record<string, string> });
  ptys.push(p);
  const t = { p, out: '', exited: new Promise<number>((r) => p.onExit((e) => r(e.exitCode))) };
  p.onData((d) => (t.out += d));
  return t;
}

/** The CLI's `attach` in a PTY: its stdout is the terminal the runner may write to. */
const attachCli = (id: string) => userTerminal(process.execPath, [BIN, 'attach', id], cliEnv(home));

/** A PTY held open by a sleeping process: the terminal an in-process attach claims as its own. */
async function heldTerminal() {
  const t = userTerminal('sleep', ['600']);
  // Until the child has exec'd, its fds are not the terminal yet.
  await waitFor('the terminal', () => fs.readlinkSync(`/proc/${t.p.pid}/fd/1`).startsWith('/dev/pts/'));
  const identity = { path: fs.readlinkSync(`/proc/${t.p.pid}/fd/1`), pid: t.p.pid, startTime: processStartTime(t.p.pid)!, fd: 1, bootId: bootId()! };
  return Object.assign(t, { identity });
}

const log = (id: string) => fs.readFileSync(runnerLog(home, id), 'utf8');
const runnerPid = () => JSON.parse(cli(home, ['ls', '--json']).stdout)[0].runnerPid as number;
const connect = (id: string) => () => RunnerConnection.open(socketPath(home, id), { scheduler: REAL_TIME.scheduler, client: 'test' });

/** The terminal after all of `data`: which screen it is on, its mouse mode and its text. */
async function played(data: string) {
  const term = new Terminal({ cols: 100, rows: 30, allowProposedApi: true });
  await new Promise<void>((r) => term.write(data, r));
  const buf = term.buffer.active;
  const text = Array.from({ length: 30 }, (_, y) => buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '').join('\n');
  const r = { screen: buf.type, mouse: term.modes.mouseTrackingMode, text };
  term.dispose();
  return r;
}

/** The restore sequence's start (src/core/terminal/terminal-restore.ts), last in the output. */
const RESTORE = '\x1b[?2026l\x1b7\x1b[r\x1b[?6l\x1b8';
const FLOOD = "printf '\\033[?1049h\\033[?1000h'; while :; do echo flood-flood-flood; done";

describe('direct output', () => {
  it('is used by a local attach: the runner writes the frame and the output, the client none of it', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'stty -echo; echo hello-direct; while IFS= read -r l; do echo "got:$l"; done']);
    const user = await heldTerminal();
    const t = new FakeTerminal(100, 30);
    const said: string[] = [];
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect: connect(id), input: t.keys, output: t.screen, detachKey: detachKey(), terminal: user.identity, log: (l) => said.push(l) });
    await waitFor('frame on the terminal', () => user.out.includes('hello-direct'));
    t.type('abc\r');
    await waitFor('echo on the terminal', () => user.out.includes('got:abc'));
    t.type('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
    // The client wrote only the restore; the output went from the runner to the terminal, not over the socket.
    expect(t.screen.drawn).not.toContain('hello-direct');
    expect(t.screen.drawn).not.toContain('got:abc');
    expect(t.screen.drawn.startsWith(RESTORE)).toBe(true);
    expect(said).toEqual([]);
    expect(log(id)).toContain(`output goes straight to ${user.identity.path}`);
  });

  it('hands back on detach mid-flood: the restored screen last, nothing of the runner after it', async () => {
    const id = newSession(home, ['--', 'sh', '-c', FLOOD]);
    const user = attachCli(id);
    await waitFor('flood', () => user.out.split('flood-flood-flood').length > 200);
    expect(log(id)).toMatch(/output goes straight to \/dev\/pts\/\d+/);
    user.p.write('\x1c');
    expect(await user.exited).toBe(0);
    const at = user.out.lastIndexOf(RESTORE);
    expect(at).toBeGreaterThan(0);
    expect(user.out.slice(at)).not.toContain('flood');
    expect(user.out.slice(at)).toContain('detached from sh-1');
    const end = await played(user.out);
    expect(end.screen).toBe('normal');
    expect(end.mouse).toBe('none');
    expect(JSON.parse(cli(home, ['ls', '--json']).stdout)[0].status).toBe('running');
  });

  it('gives the last output before the exit, then the client restores', async () => {
    const id = newSession(home, ['--', 'sh', '-c', "printf '\\033[?1049h'; read x; echo last-words; exit 4"]);
    const user = attachCli(id);
    await waitFor('direct', () => log(id).includes('output goes straight to'));
    await new Promise((r) => setTimeout(r, 200));
    user.p.write('\r');
    expect(await user.exited).toBe(0);
    expect(user.out.lastIndexOf('last-words')).toBeLessThan(user.out.lastIndexOf(RESTORE));
    expect(user.out).toContain('exited with code 4');
    expect((await played(user.out)).screen).toBe('normal');
  });

  it('restores the terminal when the runner is killed mid-flood', async () => {
    const id = newSession(home, ['--', 'sh', '-c', FLOOD]);
    const user = attachCli(id);
    await waitFor('flood', () => user.out.split('flood-flood-flood').length > 200);
    process.kill(runnerPid(), 'SIGKILL');
    const code = await user.exited;
    expect(code).not.toBe(0); // lost: the CLI says so with its exit code
    const end = await played(user.out);
    expect(end.screen).toBe('normal');
    expect(end.mouse).toBe('none');
    expect(end.text).toContain('lost the connection');
  }, 20_000);

  it('a terminal that does not keep up falls behind without stalling the runner, then gets a fresh frame', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'while :; do echo flood-flood-flood; done']);
    const user = await heldTerminal();
    const t = new FakeTerminal(100, 30);
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect: connect(id), input: t.keys, output: t.screen, detachKey: detachKey(), terminal: user.identity });
    await waitFor('flood', () => user.out.includes('flood-flood-flood'));
    user.p.pause(); // nobody reads the terminal: the kernel's buffer fills, then the runner's
    await waitFor('fell behind', () => log(id).includes('fell behind'));
    // Meanwhile the runner still serves: a status answer comes at once.
    const probe = await RawClient.hello(home, id);
    probe.send({ type: 'status' });
    await probe.next((m) => m.type === 'status', 2000);
    probe.close();
    const from = user.out.length;
    user.p.resume();
    await waitFor('a fresh frame', () => user.out.slice(from).includes(RESTORE + '\x1b[?9l'));
    t.type('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
  });

  it('closes the terminal when the client is killed, and keeps serving another client', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'stty -echo; while IFS= read -r l; do echo "got:$l"; done']);
    const user = attachCli(id);
    await waitFor('direct', () => /output goes straight to (\/dev\/pts\/\d+)/.exec(log(id)));
    const tty = /output goes straight to (\/dev\/pts\/\d+)/.exec(log(id))![1]!;
    const pid = runnerPid();
    const holds = () => fs.readdirSync(`/proc/${pid}/fd`).some((fd) => fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === tty);
    expect(holds()).toBe(true);
    const other = await RawClient.hello(home, id);
    other.send({ type: 'subscribe_terminal' });
    await other.next((m) => m.type === 'snapshot_end');
    process.kill(user.p.pid, 'SIGKILL');
    await waitFor('fd closed', () => !holds());
    other.send({ type: 'input', data: 'still\r' });
    await waitFor('served', () => other.outputText().includes('got:still'));
    other.close();
  });

  it('drops a client whose terminal closes mid-flood, logs it, and keeps serving the others', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'while :; do echo flood-flood-flood; done']);
    const other = await RawClient.hello(home, id);
    other.send({ type: 'subscribe_terminal' });
    await other.next((m) => m.type === 'snapshot_end');
    const user = await heldTerminal();
    const t = new FakeTerminal(100, 30);
    const said: string[] = [];
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect: connect(id), input: t.keys, output: t.screen, detachKey: detachKey(), terminal: user.identity, log: (l) => said.push(l), reconnectDelaysMs: [50, 50, 50] });
    await waitFor('flood on the terminal', () => user.out.split('flood-flood-flood').length > 100);
    user.p.kill('SIGKILL'); // the terminal goes away (its master closes) while the runner writes to it
    await waitFor('logged', () => log(id).includes(`its terminal ${user.identity.path} failed`));
    // The client reconnects; its terminal's holder is gone, so the runner refuses and output comes over the socket.
    await waitFor('fallback', () => said.some((l) => l.includes('refused')) && t.screen.drawn.includes('flood-flood-flood'));
    t.type('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
    const before = other.outputText().length;
    await waitFor('others served', () => other.outputText().length > before + 1000);
    expect(log(id).match(/failed \(/g)).toHaveLength(1);
    other.close();
  });

  it('starts over with a fresh frame after the connection drops, cancelling a cut sequence first', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'stty -echo; echo first; while IFS= read -r l; do echo "got:$l"; done']);
    const user = await heldTerminal();
    const t = new FakeTerminal(100, 30);
    const conns: RunnerConnection[] = [];
    const done = runAttach({
      scheduler: REAL_TIME.scheduler,
      connect: async () => {
        const c = await connect(id)();
        conns.push(c);
        return c;
      },
      input: t.keys,
      output: t.screen,
      detachKey: detachKey(),
      terminal: user.identity,
      reconnectDelaysMs: [50, 50, 50],
    });
    await waitFor('frame', () => user.out.includes('first'));
    conns[0]!.dispose();
    await waitFor('second frame', () => conns.length === 2 && user.out.indexOf('\x18') > 0 && user.out.lastIndexOf('first') > user.out.indexOf('\x18'));
    t.type('two\r');
    await waitFor('two', () => user.out.includes('got:two'));
    t.type('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
    expect(t.screen.drawn).not.toContain('first');
  });
});

describe('direct output across a runner restart', () => {
  it('the attach reconnects to the new runner, which writes to the terminal again (a CAN first, then its frame)', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'stty -echo; echo "gen-$$"; while IFS= read -r l; do echo "got:$l"; done']);
    const user = await heldTerminal();
    const t = new FakeTerminal(100, 30);
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect: connect(id), input: t.keys, output: t.screen, detachKey: detachKey(), terminal: user.identity, reconnectDelaysMs: Array(100).fill(100) });
    await waitFor('first frame', () => user.out.includes('gen-'));
    const old = runnerPid();
    process.kill(old, 'SIGKILL');
    await waitFor('runner gone', () => !fs.existsSync(`/proc/${old}`));
    const from = user.out.length;
    expect((await cliAsync(home, ['restart', id])).code).toBe(0);
    await waitFor('the new runner writes', () => user.out.slice(from).includes('\x18') && /gen-\d+/.test(user.out.slice(from)), 10_000);
    expect(runnerPid()).not.toBe(old);
    expect(log(id).split('output goes straight to').length - 1).toBe(2);
    t.type('again\r');
    await waitFor('typed', () => user.out.includes('got:again'));
    t.type('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
    expect(t.screen.drawn).not.toContain('gen-');
  }, 20_000);
});

describe('direct output and the jiggle chain', () => {
  it('tells the client when the output it wrote shows the settle marker', async () => {
    const id = newSession(home, ['--', 'sh', '-c', "read x; printf '\\033[2Jredrawn'; exec sleep 60"]);
    const user = await heldTerminal();
    const c = await RawClient.hello(home, id);
    c.send({ type: 'subscribe_terminal', direct: { ...user.identity, altScreen: false, cut: false } });
    await c.next((m) => m.type === 'snapshot_end');
    c.send({ type: 'input', data: '\r' });
    await c.next((m) => m.type === 'direct_settled');
    await waitFor('redrawn on the terminal', () => user.out.includes('redrawn'));
    expect(c.messages.some((m) => m.type === 'output')).toBe(false);
    c.close();
  });
});

describe('direct output refused', () => {
  const ask = async (id: string, direct: Record<string, unknown>) => {
    const c = await RawClient.hello(home, id);
    c.send({ type: 'subscribe_terminal', direct: { altScreen: false, cut: false, ...direct } });
    const answer = await c.next((m) => m.type === 'direct_on' || m.type === 'direct_refused');
    await c.next((m) => m.type === 'snapshot_end');
    c.close();
    return answer;
  };

  it('to a client of another machine, another process, or a path that is not its terminal', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'echo on-the-socket; exec sleep 60']);
    const user = await heldTerminal();
    const good = user.identity;
    expect(await ask(id, { ...good, bootId: '00000000-0000-0000-0000-000000000000' })).toMatchObject({ type: 'direct_refused', reason: expect.stringContaining('another machine') });
    expect(await ask(id, { ...good, startTime: String(Number(good.startTime) + 1) })).toMatchObject({ type: 'direct_refused', reason: expect.stringContaining('not the client') });
    expect(await ask(id, { ...good, pid: process.pid, startTime: processStartTime(process.pid) })).toMatchObject({ type: 'direct_refused', reason: expect.stringContaining(`is not ${good.path}`) });
    expect(await ask(id, { ...good, path: '/dev/null' })).toMatchObject({ type: 'direct_refused', reason: expect.stringContaining('not a terminal path') });
    expect(await ask(id, { ...good, path: '/tmp/../dev/pts/0' })).toMatchObject({ type: 'direct_refused' });
    expect(await ask(id, good)).toEqual({ type: 'direct_on' });
    expect(log(id).match(/refused/g)!.length).toBeGreaterThanOrEqual(5);
  });

  it('falls back to socket output silently, telling the log why', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'echo on-the-socket; exec sleep 60']);
    const user = await heldTerminal();
    const t = new FakeTerminal(100, 30);
    const said: string[] = [];
    const remote = { ...user.identity, bootId: 'another-machine' };
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect: connect(id), input: t.keys, output: t.screen, detachKey: detachKey(), terminal: remote, log: (l) => said.push(l) });
    await waitFor('frame over the socket', () => t.screen.drawn.includes('on-the-socket'));
    t.type('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
    expect(user.out).not.toContain('on-the-socket');
    expect(said.join('\n')).toContain('another machine');
  });

  it('to a terminal that is not ours (its owner checked after the identity)', async () => {
    const user = await heldTerminal();
    const mine = openClientTerminal({ ...user.identity, altScreen: false, cut: false }, { uid: process.getuid!(), bootId: bootId() });
    expect(mine.ok).toBe(true);
    if (mine.ok) fs.closeSync(mine.fd);
    const theirs = openClientTerminal({ ...user.identity, altScreen: false, cut: false }, { uid: process.getuid!() + 1, bootId: bootId() });
    expect(theirs).toEqual({ ok: false, reason: expect.stringContaining('not to us') });
  });

  it('is not asked for when the output is no terminal', () => {
    expect(terminalIdentity({ isTTY: false, fd: 1 })).toBeNull();
    expect(terminalIdentity({ isTTY: true, fd: 1 }, { AGENT_BOARD_DIRECT: '0' })).toBeNull();
  });
});
