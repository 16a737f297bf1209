import { afterEach, describe, expect, it } from 'vitest';
import './no-ci.js'; // before anything loads Ink
import { FakeFeed, session } from './fakes.js';
import { eventually, KEY } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

const waitFor = (check: () => void) => eventually(m!.out, check);
const rowNames = () => m!.out.lines().flatMap((l) => /^[› ] . (\S+)/u.exec(l)?.[1] ?? []);

function hundred() {
  return Array.from({ length: 100 }, (_, i) => session({ name: `job-${String(i + 1).padStart(3, '0')}`, agent: i % 10 === 0 ? 'claude' : 'shell' }));
}

describe('filter', () => {
  it('/ narrows the list as it is typed; Enter keeps it on the list; Esc takes it off', async () => {
    m = mountBoard(new FakeFeed(hundred()), { cols: 80, rows: 24 });
    await waitFor(() => expect(m!.out.text()).toContain('job-001'));
    m.stdin.press('/');
    await waitFor(() => expect(m!.out.lines()[22]).toMatch(/^\/ +100 of 100 {2}Enter keep {2}Esc clear$/));
    await m.stdin.type('c', 'l', 'a');
    await waitFor(() => expect(m!.out.lines()[22]).toMatch(/^\/ cla +10 of 100/));
    expect(m.out.lines()[0]).toMatch(/filter "cla" 10\/100/);
    expect(rowNames()).toEqual(['job-001', 'job-011', 'job-021', 'job-031', 'job-041', 'job-051', 'job-061', 'job-071']);
    await m.stdin.type(KEY.enter, 'j'); // the list has the keys again
    await waitFor(() => expect(m!.out.text()).toMatch(/› ● job-011/));
    expect(m.out.lines()[22]).toMatch(/^Enter attach/);
    m.stdin.press(KEY.esc);
    await waitFor(() => expect(m!.out.lines()[0]).not.toContain('filter'));
    expect(m.out.text()).toMatch(/› ● job-011/); // the selection stays
  });

  it('says so when nothing matches', async () => {
    m = mountBoard(new FakeFeed(hundred()), { cols: 80, rows: 24 });
    await waitFor(() => expect(m!.out.text()).toContain('job-001'));
    await m.stdin.type('/', 'z', 'z');
    await waitFor(() => expect(m!.out.text()).toContain('no session matches "zz"; Esc clears the filter'));
  });
});

describe('scrolling', () => {
  it('reaches the 100th session at 80x24, keeping the window around the selection', async () => {
    m = mountBoard(new FakeFeed(hundred()), { cols: 80, rows: 24 });
    await waitFor(() => expect(rowNames()).toEqual(['job-001', 'job-002', 'job-003', 'job-004', 'job-005', 'job-006', 'job-007', 'job-008']));
    expect(m.out.lines()[0]).toMatch(/ 1\/100$/);
    await m.stdin.type(...Array(9).fill('j'));
    await waitFor(() => expect(m!.out.lines()[0]).toMatch(/ 10\/100$/));
    expect(rowNames()).toEqual(['job-003', 'job-004', 'job-005', 'job-006', 'job-007', 'job-008', 'job-009', 'job-010']);
    expect(m.out.lines()[8]).toMatch(/^› ● job-010/);
    m.stdin.press('G');
    await waitFor(() => expect(m!.out.lines()[0]).toMatch(/ 100\/100$/));
    expect(rowNames()).toEqual(['job-093', 'job-094', 'job-095', 'job-096', 'job-097', 'job-098', 'job-099', 'job-100']);
    expect(m.out.lines()[8]).toMatch(/^› ● job-100/);
    m.stdin.press(KEY.pageUp);
    await waitFor(() => expect(m!.out.lines()[0]).toMatch(/ 93\/100$/));
    m.stdin.press(KEY.home);
    await waitFor(() => expect(rowNames()[0]).toBe('job-001'));
  });

  it('shows 47 rows at 200x50 and pages by a screenful', async () => {
    m = mountBoard(new FakeFeed(hundred()), { cols: 200, rows: 50 });
    await waitFor(() => expect(rowNames()).toHaveLength(47));
    m.stdin.press(KEY.pageDown);
    await waitFor(() => expect(m!.out.lines()[0]).toMatch(/ 47\/100$/));
    m.stdin.press(KEY.pageDown);
    await waitFor(() => expect(m!.out.lines()[0]).toMatch(/ 93\/100$/));
    expect(rowNames().at(-1)).toBe('job-093');
  });

  it('keys pressed together act in order: down twice then Enter attaches to the third', async () => {
    const feed = new FakeFeed(hundred());
    m = mountBoard(feed, { cols: 80, rows: 24 });
    await waitFor(() => expect(m!.out.text()).toContain('job-001'));
    m.stdin.press('jj\r');
    await waitFor(() => expect(m!.left).toHaveLength(1));
    expect(m.left[0]!.req).toEqual({ kind: 'attach', id: feed.sessions[2]!.id });
  });

  it('keys after the Enter that attaches are for the session, not the board (no x-then-y kill)', async () => {
    const feed = new FakeFeed(hundred());
    m = mountBoard(feed, { cols: 80, rows: 24 });
    await waitFor(() => expect(m!.out.text()).toContain('job-001'));
    m.stdin.press('\rxy\x1b[Aq');
    await waitFor(() => expect(m!.left).toHaveLength(1));
    expect(m.left[0]).toMatchObject({ req: { kind: 'attach', id: feed.sessions[0]!.id }, typeahead: 'xy\x1b[Aq' });
    expect(m.actions.calls).toEqual([]);
  });
});
