/**
 * A board-feed callback that throws, on the real board (runBoard in an emulated terminal) over the
 * real feed and log: the detail lands in the board log, the footer says it in one line, and the
 * board keeps running (new sessions still show, keys still work).
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import './no-ci.js'; // before anything loads Ink
import { FEED_BUG_MESSAGE, LiveBoardFeed } from '../../src/client/feed/board-feed.js';
import { FileBoardLog, boardLogFile } from '../../src/client/feed/board-log.js';
import { parseDetachKey, type DetachKey } from '../../src/core/terminal/detach-key.js';
import { runBoard } from '../../src/ui/run-board.js';
import { fakeSession } from '../helpers/chat.js';
import { destroyHome, makeHome } from '../helpers/home.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { FakeActions, FakeFeed, session } from './fakes.js';
import { eventually, FakeStdin, FakeStdout } from './harness.js';

const detachKey = (parseDetachKey('ctrl-\\') as { ok: true; key: DetachKey }).key;

let home: string;
beforeEach(() => {
  home = makeHome('ab-feed-errors-');
});
afterEach(() => destroyHome(home));

describe('a feed callback that throws', () => {
  it('goes to the board log and the footer, and the board carries on', async () => {
    fakeSession(home, 'alpha');
    const feed = new LiveBoardFeed(home, { clock: REAL_TIME.clock, scheduler: REAL_TIME.scheduler, sweepMs: 0 });
    let throwing = true;
    feed.onChange(() => {
      if (throwing) throw new Error('boom in a subscriber');
    });
    const out = new FakeStdout(100, 24);
    const stdin = new FakeStdin();
    const done = runBoard({
      home,
      feed,
      actions: new FakeActions(),
      time: REAL_TIME,
      log: new FileBoardLog(home, REAL_TIME.clock),
      stdin: stdin as never,
      stdout: out as never,
      detachKey,
      newDefaults: { kind: 'shell', name: '', command: '/bin/sh', cwd: '/', room: 'default', worktree: false, branch: '' },
      connect: () => () => Promise.reject(new Error('no runner here')),
      reconnectDelaysMs: [],
    });
    try {
      await eventually(out, () => expect(out.text()).toContain('alpha'));
      // A change the board is up for: the throwing subscriber throws again, and the footer says so.
      fakeSession(home, 'beta');
      await eventually(out, () => expect(out.text()).toContain('beta'), 5000);
      await eventually(out, () => expect(out.text()).toContain(FEED_BUG_MESSAGE.slice(0, 60)), 5000);
      const log = fs.readFileSync(boardLogFile(home), 'utf8').trimEnd().split('\n');
      expect(log.length).toBeGreaterThan(0);
      for (const line of log) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z board feed: a subscriber threw: Error: boom in a subscriber \| at /);
      expect(fs.statSync(boardLogFile(home)).mode & 0o777).toBe(0o600);
      throwing = false;
      // Keys still work: j moves the selection down.
      stdin.press('j');
      await eventually(out, () => expect(out.text()).toMatch(/›\s+\S+\s+beta/));
    } finally {
      stdin.press('q');
      await done;
      feed.dispose();
    }
  });

  it('a board log that cannot be written says so in the footer instead', async () => {
    fs.mkdirSync(boardLogFile(home)); // a folder where the file goes: every append fails
    const feed = new FakeFeed([session({ name: 'alpha' })]);
    const log = new FileBoardLog(home, REAL_TIME.clock);
    const out = new FakeStdout(120, 24);
    const stdin = new FakeStdin();
    const done = runBoard({
      home,
      feed,
      actions: new FakeActions(),
      time: REAL_TIME,
      log,
      stdin: stdin as never,
      stdout: out as never,
      detachKey,
      newDefaults: { kind: 'shell', name: '', command: '/bin/sh', cwd: '/', room: 'default', worktree: false, branch: '' },
      connect: () => () => Promise.reject(new Error('no runner here')),
      reconnectDelaysMs: [],
    });
    try {
      await eventually(out, () => expect(out.text()).toContain('alpha'));
      // A problem for the log alone (a runner's bad frame): the log cannot take it, so the footer says that.
      feed.fireError({ detail: 'session abc: the runner sent a bad frame (malformed JSON)' });
      await eventually(out, () => expect(out.text()).toMatch(/the board log: cannot write \S*board\.log/), 5000);
    } finally {
      stdin.press('q');
      await done;
      log.dispose();
    }
  });
});
