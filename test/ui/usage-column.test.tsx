/**
 * Tokens and cost on the board (docs/usage.md): `u` shows and hides a column of each session's
 * figures; the selected session's are in its preview's title either way.
 */
import { afterEach, describe, expect, it } from 'vitest';
import './no-ci.js'; // before anything loads Ink
import type { SessionUsage } from '../../src/core/usage/usage-types.js';
import { FakeFeed, screen, session } from './fakes.js';
import { eventually } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

const usage = (input: number, costUsd: number | null, unpriced: string[] = []): SessionUsage => ({
  tokens: { input, output: 0, cacheWrite: 0, cacheRead: 0 },
  costUsd,
  unpriced,
  models: ['claude-sonnet-4-5'],
  messages: 3,
  file: '/tmp/t.jsonl',
  skipped: 0,
  updatedAt: '2026-12-01T00:00:00.000Z',
});

describe('the usage column', () => {
  it('u shows each session its tokens and cost, and u again hides them', async () => {
    const api = session({ name: 'api', agent: 'claude', usage: usage(12_345, 0.42), previewLine: 'all done here' });
    const web = session({ name: 'web', agent: 'codex', usage: usage(2_500_000, null, ['gpt-9']) });
    const sh = session({ name: 'sh' });
    const feed = new FakeFeed([api, web, sh]);
    m = mountBoard(feed, { cols: 160, rows: 24 });
    await eventually(m.out, () => expect(m!.out.text()).toContain('› ● api'));
    // The list's part of the line (the preview pane is right of the bar).
    const rowOf = (name: string) => (m!.out.lines().find((l) => new RegExp(`^. . ${name} `).test(l)) ?? '').split('│')[0]!;
    expect(rowOf('api')).not.toContain('$0.42');
    m.stdin.press('u');
    await eventually(m.out, () => expect(rowOf('api')).toContain('12.3k $0.42'));
    expect(rowOf('web')).toContain('2.50M no price');
    // A session with no figures yet: a dash where they go; the last line still comes after.
    expect(rowOf('sh')).toMatch(/ - /);
    expect(rowOf('api')).toMatch(/12\.3k \$0\.42 +all done here/);
    m.stdin.press('u');
    await eventually(m.out, () => expect(rowOf('api')).not.toContain('$0.42'));
    expect(rowOf('api')).toContain('all done here');
    // The help tells of the key, and still fits 80x24.
    await m.unmount();
    m = mountBoard(new FakeFeed([api]), { cols: 80, rows: 24 });
    await eventually(m.out, () => expect(m!.out.text()).toContain('› ● api'));
    m.stdin.press('?');
    await eventually(m.out, () => expect(m!.out.text()).toContain('u         show / hide tokens and cost'));
    expect(m.out.lines()[1]).toMatch(/^ Board +Forms and the filter$/);
  });

  it("the selected session's figures are in its preview's title", async () => {
    const api = session({ name: 'api', agent: 'claude', usage: usage(950, 0.0031) });
    const feed = new FakeFeed([api]);
    m = mountBoard(feed, { cols: 160, rows: 24 });
    await eventually(m.out, () => expect(feed.previewFor.at(-1)).toBe(api.id));
    feed.setScreen(screen(api.id, ['hello'], { cols: 80, rows: 24 }));
    await eventually(m.out, () => expect(m!.out.text()).toMatch(/── api \(\w+\) claude 80x24 950 \$0\.0031 ─/));
    // e: the explanation ends with the figures and the file they came from.
    m.stdin.press('e');
    await eventually(m.out, () => expect(m!.out.text()).toMatch(/│ usage {4}950 tokens \(in 950, out 0, cache 0 written 0 read\) \$0\.0031$/m));
    expect(m.out.text()).toMatch(/│ {12}from \/tmp\/t\.jsonl, 0 lines skipped$/m);
  });
});
