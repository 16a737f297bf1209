/**
 * Marks and the prompt line (Space, p), and the explain overlay (e). Prompts
 * go through send's exactly-once path (src/client/send/durable-send.ts) and the
 * explanation through requestExplanation, to a fake runner per session that
 * acks prompts and answers `explain` with a fixture (test/ui/fake-runner.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import './no-ci.js'; // before anything loads Ink
import { UserError } from '../../src/state/errors.js';
import { FakeFeed, session } from './fakes.js';
import { eventually, KEY } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

const footer = () => m!.out.lines()[22]!;
const text = () => m!.out.text();

function threeSessions() {
  return [session({ name: 'alpha' }), session({ name: 'beta', agent: 'claude' }), session({ name: 'gamma' })];
}

describe('marks and the prompt line', () => {
  it('Space marks rows; p sends one prompt to each marked session, once; the panel says how it went', async () => {
    const [a, b, c] = threeSessions();
    m = mountBoard(new FakeFeed([a!, b!, c!]), { cols: 80, rows: 24 });
    await eventually(m.out, () => expect(text()).toContain('› ● alpha'));
    expect(footer()).not.toContain('p prompt marked');

    await m.stdin.type(' ', 'j', 'j', ' ');
    await eventually(m.out, () => expect(m!.out.lines()[3]).toMatch(/^›\*● gamma /));
    expect(m.out.lines()[1]).toMatch(/^ \*● alpha /);
    expect(m.out.lines()[2]).toMatch(/^ {2}● beta /);
    expect(m.out.lines()[0]).toMatch(/^agent-board 3 sessions {2}\* 2 marked {2}● 3 idle/);
    expect(footer()).toContain('p prompt marked');

    m.stdin.press('p');
    await eventually(m.out, () => expect(text()).toMatch(/── prompt to alpha, gamma ─+/));
    expect(footer()).toBe('Enter send  Esc cancel');
    // What Enter does, whole at 80 columns.
    expect(text()).toContain('Enter types it (into all 2) + Enter, exactly once, as send does; Esc cancels');
    await m.stdin.type('fix the tests', 'j', 'q'); // list keys are text here
    await eventually(m.out, () => expect(text()).toContain('› fix the testsjq'));
    m.stdin.press(KEY.backspace + KEY.backspace);
    await eventually(m.out, () => expect(text()).toMatch(/› fix the tests$/m));
    m.stdin.press(KEY.enter);

    await eventually(m.out, () => expect(footer()).toContain('prompt sent to 2 sessions: 2 applied'));
    expect(text()).toContain('sent: fix the tests');
    expect(text()).toMatch(/^ {2}alpha {2}applied$/m);
    expect(text()).toMatch(/^ {2}gamma {2}applied$/m);
    expect(m.actions.runner(a!.id).promptsSent()).toEqual(['fix the tests']);
    expect(m.actions.runner(c!.id).promptsSent()).toEqual(['fix the tests']);
    expect(m.actions.runners.has(b!.id)).toBe(false); // unmarked: never reached
    // Typed with Enter, through the durable path: enveloped, submit on.
    expect(m.actions.runner(a!.id).sent.find((x) => x.type === 'input')).toMatchObject({ durable: true, submit: true, data: 'fix the tests' });

    m.stdin.press(KEY.esc);
    await eventually(m.out, () => expect(text()).not.toContain('── prompt to'));
    expect(text()).toContain('›*● gamma'); // the marks stay for the next prompt
    m.stdin.press(' ');
    await eventually(m.out, () => expect(m!.out.lines()[0]).toMatch(/\* 1 marked/));
  });

  it('with nothing marked the prompt goes to the selected session; Esc cancels without sending', async () => {
    const [a, b] = threeSessions();
    m = mountBoard(new FakeFeed([a!, b!]), { cols: 80, rows: 24 });
    await eventually(m.out, () => expect(text()).toContain('› ● alpha'));
    m.stdin.press('j');
    m.stdin.press('p');
    await eventually(m.out, () => expect(text()).toMatch(/── prompt to beta ─+/));
    m.stdin.press('never sent');
    await eventually(m.out, () => expect(text()).toContain('› never sent'));
    m.stdin.press(KEY.esc);
    await eventually(m.out, () => expect(text()).not.toContain('── prompt to'));
    await new Promise((r) => setTimeout(r, 50));
    expect(m.actions.connections).toEqual([]);

    m.stdin.press('p');
    await eventually(m.out, () => expect(text()).toMatch(/── prompt to beta ─+/));
    m.stdin.press('hello' + KEY.enter);
    await eventually(m.out, () => expect(footer()).toContain('beta: applied'));
    expect(m.actions.runner(b!.id).promptsSent()).toEqual(['hello']);
  });

  it('a session that cannot be reached is its own line: nothing typed there, the others still get it', async () => {
    const [a, b] = threeSessions();
    m = mountBoard(new FakeFeed([a!, b!]), { cols: 120, rows: 24 });
    const connect = m.actions.connect;
    m.actions.connect = async (s, client) => {
      if (s.id === b!.id) throw new UserError('cannot reach session beta: connect ECONNREFUSED');
      return connect(s, client);
    };
    await eventually(m.out, () => expect(text()).toContain('› ● alpha'));
    await m.stdin.type(' ', 'j', ' ', 'p');
    await eventually(m.out, () => expect(text()).toMatch(/── prompt to alpha, beta ─+/));
    m.stdin.press('go' + KEY.enter);
    await eventually(m.out, () => expect(footer()).toContain('prompt sent to 2 sessions: 1 applied, 1 not typed'));
    expect(text()).toMatch(/^ {2}alpha {2}applied$/m);
    expect(text()).toMatch(/^ {2}beta {3}not typed {2}cannot reach session beta: connect ECONNREFUSED; nothing was typed$/m);
    expect(m.actions.runner(a!.id).promptsSent()).toEqual(['go']);
  });
});

describe('the explain overlay', () => {
  it("e shows why the selected session has its state, from its runner's explanation; Esc closes", async () => {
    const [a, b] = threeSessions();
    m = mountBoard(new FakeFeed([a!, b!]), { cols: 100, rows: 30 });
    await eventually(m.out, () => expect(text()).toContain('› ● alpha'));
    m.stdin.press('j');
    m.stdin.press('e');
    await eventually(m.out, () => expect(text()).toMatch(/── why beta is waiting ─+/));
    const shown = text();
    expect(shown).toMatch(/^state {4}waiting from screen, since \d\d:\d\d:\d\d \(5s ago\)$/m);
    expect(shown).toMatch(/^decided {2}a dialog on screen beats an idle title$/m);
    expect(shown).toMatch(/^kind {5}claude$/m);
    expect(shown).toMatch(/^hook {5}nothing {2}never spoke$/m);
    expect(shown).toMatch(/^title {4}idle {2}\d\d:\d\d:\d\d \(9s ago\) {2}rule claude\.title\.ready \(src\/core\/agents\/status-detectors\.ts\)$/m);
    expect(shown).toMatch(/^ {11}read: "✳ Claude Code"$/m);
    expect(shown).toMatch(/^screen {3}waiting {2}.* rule claude\.screen\.apiKeyDialog /m);
    expect(shown).toMatch(/^ {11}read: "Do you want to use this API key\?"$/m);
    expect(shown).toMatch(/^bytes {4}not read for this kind$/m);
    expect(shown).toMatch(/^hooks {4}wired; last SessionStart at \d\d:\d\d:\d\d \(10s ago\); hooks come through --settings$/m);
    expect(shown).toMatch(/^rules {4}src\/core\/agents\/status-detectors\.ts, \/home\/me\/\.config\/agent-board\/rules\.json$/m);
    expect(shown).toMatch(/^ {11}refused: rules\.json: claude\.screen\.mine: the pattern does not compile$/m);
    expect(m.actions.connections).toEqual(['board-explain beta']);
    expect(m.actions.runner(b!.id).sent.map((x) => x.type)).toEqual(['explain']);
    expect(m.actions.runner(b!.id).closed).toBe(true); // asked once, then let go

    m.stdin.press(KEY.esc);
    await eventually(m.out, () => expect(text()).not.toContain('── why beta'));
    expect(text()).toContain('› ● beta');
  });

  it('a runner that does not answer is one line; a session that is not running is not asked', async () => {
    const [a] = threeSessions();
    const done = session({ name: 'done', status: 'exited', exitCode: 0 });
    m = mountBoard(new FakeFeed([a!, done]), { cols: 100, rows: 30 });
    m.actions.runner(a!.id).explanation = null; // a runner from before explain ignores it
    await eventually(m.out, () => expect(text()).toContain('› ● alpha'));
    m.stdin.press('e');
    await eventually(m.out, () => expect(text()).toMatch(/^cannot explain alpha: the runner did not explain within .*$/m));
    m.stdin.press('q');
    await eventually(m.out, () => expect(text()).not.toContain('cannot explain'));
    m.stdin.press('j');
    m.stdin.press('e');
    await eventually(m.out, () => expect(text()).toContain('done is not running (exited): e explains it needs its runner'));
    expect(m.actions.connections).toEqual(['board-explain alpha']);
    expect(m.left).toEqual([]); // q closed the overlay, it did not quit
  });
});
