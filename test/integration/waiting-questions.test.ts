/**
 * The waiting sessions' questions, read off real screens: a real runner runs
 * test/fixtures/programs/turns.mjs as the claude kind (its screen rules say
 * waiting when its permission dialog is up); LiveWaitingQuestions follows a
 * real LiveBoardFeed, reads the dialog while the session waits, and lets it go
 * when a key answers it. NoticeTexts turns it into the notification's text.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LiveBoardFeed } from '../../src/client/feed/board-feed.js';
import { NoticeTexts } from '../../src/client/notify/notice-texts.js';
import { LiveWaitingQuestions } from '../../src/client/notify/waiting-questions.js';
import { sessionState } from '../../src/core/session-state.js';
import { destroyHome, makeHome, waitFor } from '../helpers/home.js';
import { startTurns as start } from '../helpers/turns.js';
import { RawClient } from '../helpers/raw-client.js';
import { REAL_TIME } from '../helpers/real-time.js';

let home: string;
const held: { dispose(): void }[] = [];

beforeEach(() => {
  home = makeHome('ab-questions-');
});

afterEach(() => {
  for (const d of held.splice(0).reverse()) d.dispose();
  destroyHome(home);
});

const startTurns = (name: string) => start(home, name);

describe('LiveWaitingQuestions', () => {
  it("reads a waiting session's question and options off its screen, and drops them once it is answered", { timeout: 30_000 }, async () => {
    const feed = new LiveBoardFeed(home, { clock: REAL_TIME.clock, scheduler: REAL_TIME.scheduler });
    held.push(feed);
    const questions = new LiveWaitingQuestions({ home, feed, time: REAL_TIME });
    held.push(questions);
    const errors: string[] = [];
    questions.onError((e) => errors.push(e));
    let changes = 0;
    questions.onChange(() => changes++);

    const { id, control } = startTurns('asker');
    const state = () => {
      const s = feed.sessions.find((x) => x.id === id);
      return s && sessionState(s);
    };
    await waitFor('asker at its prompt', () => state() === 'idle');
    expect(questions.dialog(id)).toBeNull();
    expect(changes).toBe(0);

    fs.appendFileSync(control, 'ask\n');
    await waitFor('asker waiting', () => state() === 'waiting');
    const dialog = await waitFor('its question read', () => questions.dialog(id), 5_000);
    expect(dialog).toEqual({
      question: 'Do you want to proceed?',
      options: [
        { number: 1, label: 'Yes', selected: true },
        { number: 2, label: 'No', selected: false },
      ],
    });
    expect(changes).toBe(1);

    // The text the notification gets: the question, at once now that it is read.
    const texts = new NoticeTexts({ feed, questions, time: REAL_TIME });
    held.push(texts);
    const said: string[] = [];
    texts.compose([{ id, name: 'asker', from: 'busy', to: 'waiting' }], (t) => said.push(...t.map((n) => `${n.title} | ${n.body}`)));
    expect(said).toEqual(['asker needs you | Do you want to proceed? 1. Yes 2. No']);

    // A key answers it: the session stops waiting, and the question goes.
    const keys = await RawClient.hello(home, id);
    held.push({ dispose: () => keys.socket.destroy() });
    keys.send({ type: 'input', data: '1' });
    await waitFor('asker back at its prompt', () => state() === 'idle');
    await waitFor('the question gone', () => questions.dialog(id) === null && changes === 2, 5_000);
    expect(errors).toEqual([]);
  });

  it('a session that is waiting when it starts to follow the feed has its question read too', { timeout: 30_000 }, async () => {
    const { id, control } = startTurns('early');
    fs.appendFileSync(control, 'ask\n');
    const feed = new LiveBoardFeed(home, { clock: REAL_TIME.clock, scheduler: REAL_TIME.scheduler });
    held.push(feed);
    await waitFor('early waiting', () => feed.sessions.some((s) => s.id === id && sessionState(s) === 'waiting'), 10_000);
    const questions = new LiveWaitingQuestions({ home, feed, time: REAL_TIME });
    held.push(questions);
    const dialog = await waitFor('its question read', () => questions.dialog(id), 5_000);
    expect(dialog.question).toBe('Do you want to proceed?');
    // Disposed, it lets go of its connection: the runner sees its client leave.
    questions.dispose();
    expect(questions.dialog(id)).toBeNull();
  });
});
