/**
 * A remote row's question (the board's --host, config.json `hosts`): read off its screen through
 * `agent-board bridge` over ssh, as the board's preview reads it, against a real sshd
 * (test/helpers/two-hosts.ts) and a real runner on the far side.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveBoardFeed } from '../../src/client/feed/board-feed.js';
import { LiveWaitingQuestions } from '../../src/client/notify/waiting-questions.js';
import { MultiHostFeed } from '../../src/client/remote/remote-feed.js';
import { sessionState } from '../../src/core/session-state.js';
import { destroyHome, makeHome, waitFor } from '../helpers/home.js';
import { REAL_TIME } from '../helpers/real-time.js';
import { startSshd, type Sshd } from '../helpers/sshd.js';
import { startTurns } from '../helpers/turns.js';
import { twoHosts, type TwoHosts } from '../helpers/two-hosts.js';

const started = await startSshd();
const sshd: Sshd | null = 'skip' in started ? null : started;
if (!sshd) console.warn(`\n*** remote-questions tests NOT RUN: ${(started as { skip: string }).skip} ***\n`);

let hosts: TwoHosts;
const saved = { opts: process.env.AGENT_BOARD_SSH_OPTS, cmd: process.env.AGENT_BOARD_REMOTE_COMMAND };

beforeAll(async () => {
  if (!sshd) return;
  hosts = await twoHosts(sshd);
  Object.assign(process.env, hosts.env); // the ssh this process starts reads them
});
afterAll(() => {
  if (!sshd) return;
  for (const h of Object.values(hosts.homes)) destroyHome(h);
  hosts.dispose();
  sshd.stop();
  for (const [k, v] of [['AGENT_BOARD_SSH_OPTS', saved.opts], ['AGENT_BOARD_REMOTE_COMMAND', saved.cmd]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe.skipIf(!sshd)('a remote row', () => {
  it("has its question read over ssh while it waits", { timeout: 60_000 }, async () => {
    const localHome = makeHome('ab-questions-local-');
    const { id, control } = startTurns(hosts.homes.alpha, 'far');
    fs.appendFileSync(control, 'ask\n');
    const feed = new MultiHostFeed(new LiveBoardFeed(localHome, { clock: REAL_TIME.clock, scheduler: REAL_TIME.scheduler }), ['alpha'], { home: localHome, time: REAL_TIME });
    const questions = new LiveWaitingQuestions({ home: localHome, feed, time: REAL_TIME });
    try {
      const row = await waitFor('the remote row waiting', () => feed.sessions.find((s) => s.host === 'alpha' && s.remoteId === id && sessionState(s) === 'waiting'), 20_000);
      expect(row.id).toBe(`alpha/${id}`);
      const dialog = await waitFor('its question read over ssh', () => questions.dialog(row.id), 20_000);
      expect(dialog.question).toBe('Do you want to proceed?');
      expect(dialog.options.map((o) => o.label)).toEqual(['Yes', 'No']);
    } finally {
      questions.dispose();
      feed.dispose();
      destroyHome(localHome);
    }
  });
});
