/**
 * Every line to a runner across its death and a restart (real runners, real sockets): the board
 * feed's status link and preview mirror, and an attach, each kept up by its RunnerLink. The runner
 * is SIGKILLed (the row turns lost, the attach reconnects to nobody), then `restart` starts a new
 * runner generation: the row is running again with the new runner, the preview shows the new
 * program's screen, and the attach, through its states, shows it too and still detaches.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AttachClient } from '../../src/client/attach/attach-client.js';
import { LiveBoardFeed } from '../../src/client/feed/board-feed.js';
import { RunnerConnection } from '../../src/client/link/connection.js';
import type { AttachState } from '../../src/core/attach-states.js';
import { parseDetachKey } from '../../src/core/terminal/detach-key.js';
import { isPidAlive } from '../../src/state/host-store.js';
import { socketPath } from '../../src/state/paths.js';
import { readHost } from '../helpers/control.js';
import { cliAsync, destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { FakeTerminal } from '../helpers/screen.js';

let home: string;
let feed: LiveBoardFeed | null = null;
beforeEach(() => {
  home = makeHome('ab-restart-');
});
afterEach(() => {
  feed?.dispose();
  feed = null;
  destroyHome(home);
});

const detachKey = () => {
  const k = parseDetachKey('ctrl-\\');
  if (!k.ok) throw new Error(k.message);
  return k.key;
};

describe('a runner killed and restarted', () => {
  it('the status link, the preview mirror and an attach all come back to the new runner', async () => {
    const id = newSession(home, ['--', 'sh', '-c', 'echo "program $$ ready"; exec sleep 600']);
    await waitFor('first program', () => readHost(home, id).childPid);
    const old = readHost(home, id);
    const f = (feed = new LiveBoardFeed(home, { clock: REAL_TIME.clock, scheduler: REAL_TIME.scheduler }));
    f.setPreview(id);
    const row = () => f.sessions.find((s) => s.id === id);
    const preview = () => f.preview?.lines.join('\n') ?? '';
    await waitFor('previewed', () => preview().includes(`program ${old.childPid} ready`));

    const t = new FakeTerminal(90, 25);
    const client = new AttachClient({
      scheduler: REAL_TIME.scheduler,
      connect: () => RunnerConnection.open(socketPath(home, id), { scheduler: REAL_TIME.scheduler, client: 'attach-test' }),
      input: t.keys,
      output: t.screen,
      detachKey: detachKey(),
      reconnectDelaysMs: Array(100).fill(100), // ten seconds of tries: long enough for the restart
    });
    const states: AttachState[] = [client.state];
    client.onStateChange((c) => states.push(c.to));
    const done = client.run();
    await waitFor('attached', () => t.screen.drawn.includes(`program ${old.childPid} ready`));

    process.kill(old.runnerPid!, 'SIGKILL');
    await waitFor('runner gone', () => !isPidAlive(old.runnerPid));
    await waitFor('row lost', () => row()?.status === 'lost');
    await waitFor('attach reconnecting', () => client.state === 'reconnecting');

    const restartedAt = Date.now();
    const r = await cliAsync(home, ['restart', id]);
    expect(r.code).toBe(0);
    const now = readHost(home, id);
    expect(now.generation).not.toBe(old.generation);
    await waitFor('row running on the new runner', () => row()?.status === 'running' && row()?.runnerPid === now.runnerPid);
    await waitFor('preview of the new program', () => preview().includes(`program ${now.childPid} ready`));
    await waitFor('attach on the new program', () => client.state === 'live' && t.screen.drawn.includes(`program ${now.childPid} ready`));
    console.log(`feed row, preview and attach back ${Date.now() - restartedAt} ms after restart was asked`);
    expect(preview()).not.toContain(`program ${old.childPid} ready`); // a fresh screen, not the old one kept

    t.type('\x1c');
    expect(await done).toEqual({ reason: 'detached' });
    expect(states).toEqual(['connecting', 'subscribing', 'live', 'reconnecting', 'subscribing', 'live', 'ended']);
  });
});
