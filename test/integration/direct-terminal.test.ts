/**
 * Direct output against a real runner and a real PTY as the user's terminal: the runner writes
 * the session's output to the terminal itself, and hands it back cleanly on detach, on the
 * program's exit, when the runner is killed, when the client is killed and when the terminal
 * closes mid-output.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runAttach } from '../../src/client/attach/attach.js';
import { RunnerConnection } from '../../src/client/link/connection.js';
import { attachCli as attachTerminal, connector, detachKey, FLOOD, freshHomeEachTest, heldTerminal, played, RESTORE, runnerPidOf, runnerText } from '../helpers/direct-terminal.js';
import { cli, newSession, waitFor } from '../helpers/home.js';
import { RawClient } from '../helpers/raw-client.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { FakeTerminal } from '../helpers/screen.js';

let home: string;
freshHomeEachTest((h) => (home = h));

const log = (id: string) => runnerText(home, id);
/** An fd's target, or null when it closed between the listing and the read (the runner's fds come and go). */
const linkOf = (p: string): string | null => {
  try {
    return fs.readlinkSync(p);
  } catch {
    return null;
  }
};
const runnerPid = () => runnerPidOf(home);
const connect = (id: string) => connector(home, id);
const attachCli = (id: string) => attachTerminal(home, id);

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
    // Opened O_NOCTTY: the runner (a session leader without a terminal) did not get one (field 7, tty_nr).
    const stat = fs.readFileSync(`/proc/${runnerPid()}/stat`, 'utf8');
    expect(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[7 - 3]).toBe('0');
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
    expect(end.text.replace(/\s+/g, ' ')).toContain("runner is gone, and the attach with it; bring the session back with: agent-board revive");
  });

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
    await probe.next((m) => m.type === 'status');
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
    const holds = () => fs.readdirSync(`/proc/${pid}/fd`).some((fd) => linkOf(`/proc/${pid}/fd/${fd}`) === tty);
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
