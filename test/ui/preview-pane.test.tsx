import { afterEach, describe, expect, it } from 'vitest';
import './no-ci.js'; // before anything loads Ink
import { FakeFeed, screen, session } from './fakes.js';
import { eventually, KEY } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

/** A 120x35 screen: numbered rows, long enough to be cut at 80 columns, a prompt at the bottom. */
function tallScreen(id: string) {
  const lines = Array.from({ length: 35 }, (_, i) => `row ${String(i).padStart(2, '0')} ${'abcdefghij'.repeat(11)}`);
  lines[34] = '$ ';
  return screen(id, lines, { cols: 120, rows: 35, cursorX: 2, cursorY: 34 });
}

describe('the preview pane', () => {
  it('follows the selection (BoardFeed.setPreview) and shows the screen only once it is the selected one', async () => {
    const a = session({ name: 'alpha' });
    const b = session({ name: 'beta' });
    const feed = new FakeFeed([a, b]);
    m = mountBoard(feed);
    await eventually(m.out, () => expect(feed.previewFor.at(-1)).toBe(a.id));
    feed.setScreen(screen(a.id, ['alpha says hi']));
    await eventually(m.out, () => expect(m!.out.text()).toContain('alpha says hi'));
    m.stdin.press('j');
    await eventually(m.out, () => expect(feed.previewFor.at(-1)).toBe(b.id));
    await eventually(m.out, () => expect(m!.out.text()).toContain('waiting for the screen…'));
    expect(m.out.text()).not.toContain('alpha says hi'); // the old screen is not passed off as beta's
  });

  it('crops a taller, wider screen to the pane, keeping the cursor row in view (80x24)', async () => {
    const a = session({ name: 'alpha' });
    const feed = new FakeFeed([a]);
    m = mountBoard(feed, { cols: 80, rows: 24 });
    feed.setScreen(tallScreen(a.id));
    await eventually(m.out, () => expect(m!.out.text()).toContain('$'));
    const lines = m.out.lines();
    // Header, one list row, the title, then 19 screen rows: rows 16-33 and the prompt row.
    expect(lines[2]).toMatch(/^── alpha \(idle\) 120x35 ─+$/);
    // Wider than the pane: cut at its edge, an ellipsis saying the screen goes on.
    expect(lines[3]).toBe(`${`row 16 ${'abcdefghij'.repeat(11)}`.slice(0, 79)}…`);
    expect(lines[20]).toBe(`${`row 33 ${'abcdefghij'.repeat(11)}`.slice(0, 79)}…`);
    expect(lines[21]).toBe('$');
    expect(lines.every((l) => l.length <= 80)).toBe(true);
  });

  it('starts at the top when the cursor is near it', async () => {
    const a = session({ name: 'alpha' });
    const feed = new FakeFeed([a]);
    m = mountBoard(feed, { cols: 80, rows: 24 });
    feed.setScreen({ ...tallScreen(a.id), cursorY: 3 });
    await eventually(m.out, () => expect(m!.out.lines()[3]).toMatch(/^row 00 /));
    expect(m.out.lines()[21]).toMatch(/^row 18 /);
  });

  it('says when the screen is the last one of an exited session, and what there is for a lost one', async () => {
    const done = session({ name: 'done', status: 'exited', exitCode: 0 });
    const lost = session({ name: 'ghost', status: 'lost' });
    const feed = new FakeFeed([done, lost]);
    m = mountBoard(feed);
    feed.setScreen(screen(done.id, ['bye'], { final: true }));
    await eventually(m.out, () => expect(m!.out.text()).toMatch(/── done \(exited 0\) 80x1, last screen ─+/));
    m.stdin.press(KEY.down);
    await eventually(m.out, () => expect(m!.out.text()).toContain('its runner is gone: no screen to show (R revives it)'));
  });

  it('is as wide as the right-hand pane at 200x50, and as tall as the body', async () => {
    const a = session({ name: 'alpha' });
    const feed = new FakeFeed([a]);
    m = mountBoard(feed, { cols: 200, rows: 50 });
    const wide = screen(a.id, Array.from({ length: 60 }, (_, i) => `${String(i).padStart(2, '0')}${'x'.repeat(198)}`), { cols: 200, rows: 60, cursorY: 59 });
    feed.setScreen(wide);
    await eventually(m.out, () => expect(m!.out.text()).toContain('59xxx'));
    const lines = m.out.lines();
    const pane = lines.map((l) => l.slice(l.indexOf('│') + 2));
    expect(pane[2]).toMatch(/^14x+…$/); // 46 rows: 14..59, each wider than the pane
    expect(pane[47]).toMatch(/^59x+…$/);
    expect(lines[2]!.length).toBe(200);
  });
});
