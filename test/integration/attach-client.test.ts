import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAttach } from '../../src/client/attach/attach.js';
import { RunnerConnection } from '../../src/client/link/connection.js';
import { parseDetachKey } from '../../src/core/terminal/detach-key.js';
import { socketPath } from '../../src/state/paths.js';
import { RawClient } from '../helpers/raw-client.js';
import { cli, destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';
import { FakeTerminal } from '../helpers/screen.js';
import { REAL_TIME } from '../helpers/real-time.js';

let home: string;
beforeEach(() => {
  home = makeHome();
});
afterEach(() => destroyHome(home));

const key = (spec = 'ctrl-\\') => {
  const k = parseDetachKey(spec);
  if (!k.ok) throw new Error(k.message);
  return k.key;
};

describe('the attach client against a real runner', () => {
  it('draws the first frame at its size, passes keys through, and detaches on the key, leaving the session running', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'stty -echo; echo hello-there; while IFS= read -r l; do echo "got:$l:$(stty size)"; done']);
    await waitFor('hello', () => cli(home, ['peek', id]).stdout.includes('hello-there'));
    const t = new FakeTerminal();
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect: () => RunnerConnection.open(socketPath(home, id), { scheduler: REAL_TIME.scheduler, client: 'test' }), input: t.keys, output: t.screen, detachKey: key() });
    await waitFor('frame', () => t.screen.drawn.includes('hello-there'));
    expect(t.keys.isRaw).toBe(true);
    t.type('abc\r');
    await waitFor('echo', () => t.screen.drawn.includes('got:abc:30 100'));
    t.screen.columns = 90;
    t.screen.emit('resize');
    t.type('x\r');
    await waitFor('resized', () => t.screen.drawn.includes('got:x:30 90'));
    t.type('before\r\x1cafter');
    expect(await done).toEqual({ reason: 'detached' });
    expect(t.keys.isRaw).toBe(false);
    expect(t.screen.drawn.endsWith('\x1b[?25h')).toBe(true); // restore sequence last
    expect(t.screen.drawn).toContain('\x1b[?2004l');
    await waitFor('before typed', () => cli(home, ['peek', id]).stdout.includes('got:before'));
    // What followed the detach key never reached the program: the next line it reads is empty.
    const probe = await RawClient.hello(home, id);
    probe.send({ type: 'subscribe_terminal' });
    await probe.next((m) => m.type === 'snapshot_end');
    probe.send({ type: 'input', data: '\r' });
    await waitFor('probe', () => probe.outputText().includes('got::'));
    expect(probe.outputText()).not.toContain('after');
    probe.close();
    expect(JSON.parse(cli(home, ['ls', '--json']).stdout)[0].status).toBe('running');
  });

  it('turns the alternate screen off on detach only when the program had it on', async () => {
    const id = newSession(home, ['--', 'sh', '-c', "printf '\\033[?1049h\\033[?1000h in-alt'; exec sleep 60"]);
    await waitFor('alt', () => cli(home, ['peek', id]).stdout.includes('in-alt'));
    const t = new FakeTerminal();
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect: () => RunnerConnection.open(socketPath(home, id), { scheduler: REAL_TIME.scheduler, client: 'test' }), input: t.keys, output: t.screen, detachKey: key('ctrl-]') });
    await waitFor('frame', () => t.screen.drawn.includes('in-alt'));
    t.type('\x1d');
    await done;
    const tail = t.screen.drawn.slice(t.screen.drawn.lastIndexOf('in-alt'));
    expect(tail).toContain('\x1b[?1049l');
    expect(tail).toContain('\x1b[?1000l');
  });

  it('ends with the exit code when the program exits while attached', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'read x; exit 4']);
    const t = new FakeTerminal();
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect: () => RunnerConnection.open(socketPath(home, id), { scheduler: REAL_TIME.scheduler, client: 'test' }), input: t.keys, output: t.screen, detachKey: key() });
    await new Promise((r) => setTimeout(r, 200));
    t.type('\r');
    expect(await done).toEqual({ reason: 'exited', code: 4, signal: null });
  });

  it('reconnects when the connection drops and resumes the stream; gives up with "lost" when the runner is gone', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'stty -echo; while IFS= read -r l; do echo "got:$l"; done']);
    const t = new FakeTerminal();
    const conns: RunnerConnection[] = [];
    const connect = async () => {
      const c = await RunnerConnection.open(socketPath(home, id), { scheduler: REAL_TIME.scheduler, client: 'test' });
      conns.push(c);
      return c;
    };
    const done = runAttach({ scheduler: REAL_TIME.scheduler, connect, input: t.keys, output: t.screen, detachKey: key(), reconnectDelaysMs: [50, 50, 50] });
    await waitFor('connected', () => conns.length === 1 && t.screen.drawn.length > 0);
    t.type('one\r');
    await waitFor('one', () => t.screen.drawn.includes('got:one'));
    conns[0]!.dispose(); // cut the connection, as a network or a crash would
    await waitFor('reconnected', () => conns.length === 2);
    t.type('two\r');
    await waitFor('two', () => t.screen.drawn.includes('got:two'));
    expect(t.screen.drawn.split('got:one').length - 1).toBe(1); // resumed, nothing drawn twice

    const pid = JSON.parse(cli(home, ['ls', '--json']).stdout)[0].runnerPid as number;
    process.kill(pid, 'SIGKILL');
    const r = await done;
    expect(r.reason).toBe('lost');
  });
});
