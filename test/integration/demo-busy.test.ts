/**
 * A demo agent's row never says idle under a line that says it works: with a real runner and the
 * board's feed, every push whose last line is the demo agent's spinner (`⠙ Pretending to think…`)
 * says busy. The activity used to follow the screen check, 250 ms after the output: the row said
 * `idle` while its last line read `⠙ Reading the chat…`. The title's spinner is read as it comes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LiveBoardFeed } from '../../src/client/feed/board-feed.js';
import { sessionState } from '../../src/core/session-state.js';
import { cli, destroyHome, makeHome, waitFor } from '../helpers/home.js';
import { REAL_TIME } from '../helpers/real-time.js';

let home: string;
let feed: LiveBoardFeed | null = null;
beforeEach(() => {
  home = makeHome('ab-demo-busy-');
});
afterEach(() => {
  feed?.dispose();
  feed = null;
  destroyHome(home);
});

const SPINNER = /^[\u2800-\u28ff] /;
const TURNS = 4;

describe('the demo agent on the board', () => {
  it('its row is busy in the same push that brings its spinner line, turn after turn', { timeout: 60_000 }, async () => {
    const r = cli(home, ['new', '--name', 'bob', '--agent', 'demo'], { env: { AGENT_BOARD_DEMO_WORK_MS: '600' } });
    expect(r.code, r.stderr).toBe(0);
    const id = r.stdout.trim();
    const f = (feed = new LiveBoardFeed(home, { clock: REAL_TIME.clock, scheduler: REAL_TIME.scheduler }));
    const row = () => f.sessions.find((s) => s.id === id);
    await waitFor('bob idle at his prompt', () => row()?.runnerAlive && sessionState(row()!) === 'idle' && row()?.previewLine?.includes('? for shortcuts'), 15_000);
    const seen: { state: string; line: string }[] = [];
    f.onChange(() => {
      const s = row();
      if (s) seen.push({ state: sessionState(s), line: s.previewLine ?? '' });
    });
    for (let turn = 1; turn <= TURNS; turn++) {
      const from = seen.length;
      const sent = cli(home, ['send', 'bob', `turn ${turn}`]);
      expect(sent.code, sent.stderr).toBe(0);
      const spun = () => seen.slice(from).some((x) => SPINNER.test(x.line));
      await waitFor(`turn ${turn} over`, () => spun() && sessionState(row()!) === 'idle' && row()?.previewLine?.includes('? for shortcuts'), 15_000);
    }
    const working = seen.filter((x) => SPINNER.test(x.line));
    expect(working.length).toBeGreaterThan(TURNS);
    expect(working.filter((x) => x.state !== 'busy')).toEqual([]);
  });
});
