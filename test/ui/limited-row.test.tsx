/**
 * A limited session on the board (docs/usage.md): its row says `limited · 2h13m` and counts down
 * on the board's clock (a fake one here, moved by the test), the header counts it, and a row
 * whose limit is over (the runner dropped `limited`) is itself again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import './no-ci.js'; // before anything loads Ink
import { FakeFeed, session } from './fakes.js';
import { eventually } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';
import { FakeTime } from '../helpers/fake-time.js';

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

const MIN = 60_000;
/** React runs the list's effects (the clock's tick re-armed for the new countdown) after it draws: let them run before the clock moves. */
const effects = () => new Promise((r) => setTimeout(r, 50));

describe('a limited row', () => {
  it('counts down to the reset: hours and minutes, then seconds in the last minute', async () => {
    const time = new FakeTime(Date.now());
    const reset = (ms: number) => ({ resetAt: new Date(time.now() + ms).toISOString(), line: 'LIMIT REACHED', since: new Date(time.now()).toISOString() });
    const feed = new FakeFeed([session({ name: 'capped', limited: reset(2 * 60 * MIN + 13 * MIN) }), session({ name: 'soon', limited: reset(2 * MIN + 5000) }), session({ name: 'free' })]);
    m = mountBoard(feed, { cols: 120, rows: 20, time: { clock: time, scheduler: time } });
    const row = (name: string) => m!.out.lines().find((l) => l.includes(` ${name} `)) ?? '';
    await eventually(m.out, () => expect(row('capped')).toMatch(/◷ +capped +shell +limited · 2h13m /));
    expect(row('soon')).toMatch(/limited · 3m /);
    expect(row('free')).toMatch(/● +free +shell +idle /);
    expect(m.out.lines()[0]).toMatch(/◷ 2 limited/);
    await effects();
    time.advance(MIN);
    await eventually(m.out, () => expect(row('capped')).toMatch(/limited · 2h12m /));
    expect(row('soon')).toMatch(/limited · 2m /);
    await effects();
    time.advance(MIN);
    await eventually(m.out, () => expect(row('soon')).toMatch(/limited · 5s /));
    await effects();
    time.advance(1000);
    await eventually(m.out, () => expect(row('soon')).toMatch(/limited · 4s /));
    await effects();
    time.advance(5000);
    await eventually(m.out, () => expect(row('soon')).toMatch(/limited · reset /));
    // The runner says the limit is over: the row is idle again, and the columns narrow back.
    feed.setSessions(feed.sessions.map((s) => (s.name === 'soon' ? { ...s, limited: undefined } : s)));
    await eventually(m.out, () => expect(row('soon')).toMatch(/● +soon +shell +idle /));
  });

  it('L turns resume-after-limit on for the selected session, and off again; the footer says what it set', async () => {
    const limited = { resetAt: new Date(Date.now() + 3600_000).toISOString(), line: 'LIMIT REACHED', since: new Date().toISOString() };
    const feed = new FakeFeed([session({ name: 'capped', limited })]);
    m = mountBoard(feed, { cols: 120, rows: 20 });
    // A limited session that waits for the user: the footer tells the key.
    await eventually(m.out, () => expect(m!.out.text()).toContain('L carry on after the limit'));
    m.stdin.press('L');
    await eventually(m.out, () => expect(m!.out.text()).toContain('capped carries on after a usage limit: types "continue" once it resets (at most 3 a day)'));
    expect(m.actions.calls).toContainEqual({ op: 'resume-after-limit', id: feed.sessions[0]!.id, on: true });
    feed.setSessions(feed.sessions.map((s) => ({ ...s, resumeAfterLimit: { prompt: 'continue', perDay: 3 } })));
    await eventually(m.out, () => expect(m!.out.text()).not.toContain('L carry on after the limit'));
    m.stdin.press('L');
    await eventually(m.out, () => expect(m!.out.text()).toContain('capped waits for you after a usage limit (resume-after-limit off)'));
    expect(m.actions.calls).toContainEqual({ op: 'resume-after-limit', id: feed.sessions[0]!.id, on: false });
  });
});
