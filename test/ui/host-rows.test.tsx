/**
 * The board's host column (the board's --host): none with this machine's sessions alone; with
 * remote rows `local` or the machine before the name; a row whose machine cannot be reached
 * says `no link`; the header carries each such machine's one line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import './no-ci.js'; // before anything loads Ink

import { FakeFeed, session } from './fakes.js';
import { eventually } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';
import type { SessionView } from '../../src/state/host-store.js';

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

const remote = (host: string, over: Partial<SessionView>): SessionView => {
  const s = session(over);
  return { ...s, id: `${host}/${s.id}`, host, remoteId: s.id };
};

class HostsFeed extends FakeFeed {
  hostLines: readonly string[] = [];
}

describe('the host column', () => {
  it('is not there with local sessions alone', async () => {
    m = mountBoard(new FakeFeed([session({ name: 'api' })]), { cols: 80, rows: 24 });
    await eventually(m.out, () => expect(m!.out.lines()[1]).toMatch(/^› ● api +shell +idle/));
  });

  it('names each row’s machine, says `no link` on a stale one, and the header says why', async () => {
    const feed = new HostsFeed([
      session({ name: 'api' }),
      remote('alpha', { name: 'far', previewLine: '$ make' }),
      remote('build-box', { name: 'far', stale: true }),
    ]);
    feed.hostLines = ['build-box: unreachable (ssh: Connection refused); retrying in 10 s'];
    m = mountBoard(feed, { cols: 120, rows: 24 });
    const out = m.out;
    await eventually(out, () => expect(out.lines()[3]).toContain('build-box'));
    const rows = out.lines().slice(1, 4);
    expect(rows[0]).toMatch(/^› ● local {5}api +shell +idle +\d+\w$/);
    expect(rows[1]).toMatch(/^ {2}● alpha {5}far +shell +idle +\d+\w {2}\$ make$/);
    expect(rows[2]).toMatch(/^ {2}● build-box far +shell +no link +\d+\w$/);
    expect(out.lines()[0]).toMatch(/^agent-board 3 sessions .*build-box: unreachable \(ssh: Connection refused\); retrying in 10 s$/);
    // What the unreachable machine's rows were is not what they are: counted apart, not as idle.
    expect(out.lines()[0]).toMatch(/^agent-board 3 sessions {2}● 2 idle {2}\? 1 no link {2,}build-box: /);
  });
});
