/**
 * The board's offer after a reboot: lost sessions are counted on a line above the list, R revives
 * them all through BoardActions.revive (one outcome per session on the notice line), nothing is
 * revived without it unless autoRevive (then on start, said so), and the help lists R.
 */
import { afterEach, describe, expect, it } from 'vitest';
import './no-ci.js'; // before anything loads Ink
import type { ReviveOutcome } from '../../src/client/session/session-revive.js';
import { FakeActions, FakeFeed, session } from './fakes.js';
import { eventually } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

const screenText = () => m!.out.text();
const waitFor = (check: () => void) => eventually(m!.out, check);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function home() {
  const alice = session({ name: 'alice', status: 'lost', agent: 'claude' });
  const bob = session({ name: 'bob', status: 'lost' });
  const carol = session({ name: 'carol' });
  return { alice, bob, carol, feed: new FakeFeed([alice, bob, carol]) };
}

describe('lost sessions on the board', () => {
  it('are counted above the list; R revives them all and each outcome is on the notice line; the rows turn live', async () => {
    const { alice, bob, carol, feed } = home();
    const actions = new FakeActions();
    let second = () => undefined as void;
    actions.reviveResult = async (lost, onOutcome) => {
      const outcomes: ReviveOutcome[] = [
        { kind: 'revived', session: lost[0]!, record: { ...alice, status: 'running', resumeId: '1b2c3d4e-5f60-4718-9a0b-c1d2e3f4a5b6' }, conversation: { outcome: 'resumed', note: 'conversation 1b2c3d4e-5f60-4718-9a0b-c1d2e3f4a5b6 resumed' } },
        { kind: 'failed', session: lost[1]!, reason: 'its folder /x is gone (rm it with: agent-board rm bob)' },
      ];
      onOutcome?.(outcomes[0]!);
      await new Promise<void>((r) => (second = r));
      onOutcome?.(outcomes[1]!);
      feed.setSessions([{ ...alice, status: 'running' }, { ...bob, status: 'running' }, carol]);
      return outcomes;
    };
    m = mountBoard(feed, { actions, cols: 220 });
    await waitFor(() => expect(screenText()).toContain('⚠ 2 sessions lost (the machine restarted?): R revives them all'));
    // The banner takes the line under the header: the list starts below it.
    expect(m.out.lines()[1]).toContain('2 sessions lost');
    await pause(100);
    expect(actions.calls.filter((c) => c.op === 'revive')).toEqual([]); // nothing without the key
    m.stdin.press('R');
    // Each outcome as it comes, then all of them.
    await waitFor(() => expect(screenText()).toContain('reviving 2 lost sessions: 1/2 alice revived (claude, conversation 1b2c… resumed)'));
    second();
    await waitFor(() => expect(screenText()).toContain('bob not revived: its folder /x is gone'));
    expect(actions.calls.filter((c) => c.op === 'revive')).toEqual([{ op: 'revive', ids: [alice.id, bob.id] }]);
    expect(screenText()).toContain('alice revived (claude, conversation 1b2c… resumed)');
    await waitFor(() => expect(screenText()).not.toContain('sessions lost'));
  });

  it('with autoRevive the board revives them as it starts and says so, with no key', async () => {
    const { alice, bob, feed } = home();
    const actions = new FakeActions();
    m = mountBoard(feed, { actions, autoRevive: true, cols: 220 });
    await waitFor(() => expect(actions.calls.filter((c) => c.op === 'revive')).toEqual([{ op: 'revive', ids: [alice.id, bob.id] }]));
    await waitFor(() => expect(screenText()).toContain('autoRevive: alice revived (claude, conversation x was never saved (no turn yet): started afresh as x); bob revived (shell, started fresh in /tmp)'));
  });

  it('no lost session: no banner; R says there is nothing to revive', async () => {
    m = mountBoard(new FakeFeed([session({ name: 'dave' })]), { autoRevive: true });
    await waitFor(() => expect(screenText()).toContain('dave'));
    expect(screenText()).not.toContain('lost');
    m.stdin.press('R');
    await waitFor(() => expect(screenText()).toContain('no session is lost: nothing to revive'));
    expect(m.actions.calls).toEqual([]);
  });

  it('the help lists R', async () => {
    m = mountBoard(new FakeFeed([session({ name: 'dave' })]));
    await waitFor(() => expect(screenText()).toContain('dave'));
    m.stdin.press('?');
    await waitFor(() => expect(screenText()).toMatch(/R +revive every lost session/));
  });
});
