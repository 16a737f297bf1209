/**
 * The board's diff view (D): the files with their counts, the diff in colour
 * with a cursor line, moves by hunk and file, a comment on a line, and S
 * sending the comments as one prompt through send's exactly-once path (to a
 * fake runner that acks prompts: test/ui/fake-runner.ts), marked sent.
 */
import { parsePatch } from 'diff';
import { afterEach, describe, expect, it, vi } from 'vitest';
import './no-ci.js'; // before anything loads Ink

// Colours on, as on a user's terminal (chalk reads this when it loads).
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});
import { diffModel } from '../../src/core/worktree/diff-model.js';
import { PATCH } from '../unit/diff-patch.js';
import { FakeFeed, session } from './fakes.js';
import { colorOf, eventually, KEY } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

const text = () => m!.out.text();
const footer = () => m!.out.lines()[22]!;
const GREEN = 2;
const RED = 1;
const CYAN = 6;
const worktree = { repo: '/r', path: '/r-wt', branch: 'agent/api', base: 'main', baseCommit: 'abc', createdBranch: true };

async function openDiff(cols = 80) {
  const api = session({ name: 'api', worktree });
  m = mountBoard(new FakeFeed([api, session({ name: 'plain' })]), { cols, rows: 24 });
  m.actions.diffResult = async () => diffModel(parsePatch(PATCH));
  await eventually(m.out, () => expect(text()).toContain('› ● api'));
  m.stdin.press('D');
  await eventually(m.out, () => expect(text()).toContain('diff of api: 5 files +5 -3'));
  return api;
}

describe('the diff view', () => {
  it('D shows the files with counts and the diff in colour; ] and } move by hunk and file; Esc goes back', async () => {
    await openDiff();
    expect(text()).toMatch(/^src\/a\.ts +\+3 -2$/m);
    expect(text()).toContain('old.txt → moved.txt');
    expect(colorOf(m!.out, '@@ -1,3 +1,4 @@')).toBe(CYAN);
    expect(colorOf(m!.out, '+TWO')).toBe(GREEN);
    expect(colorOf(m!.out, '-two')).toBe(RED);
    expect(text()).toMatch(/^ {4}2 {7}-two$/m);
    expect(text()).toContain('@@ -0,0 +1,2 @@'); // git's numbering of an empty side
    expect(footer()).toContain('c comment');
    m!.stdin.press(']');
    m!.stdin.press(']');
    await eventually(m!.out, () => expect(text()).toContain('@@ -10,2 +11,2 @@'));
    m!.stdin.press('}');
    await eventually(m!.out, () => expect(text()).toContain('+n1'));
    m!.stdin.press(KEY.esc);
    await eventually(m!.out, () => expect(text()).toContain('› ● api'));
    expect(text()).not.toContain('diff of api');
  });

  it('c comments on the cursor line; S sends the comments as one prompt, once, and marks them sent', async () => {
    const api = await openDiff();
    await m!.stdin.type('j', 'j', 'j', 'c'); // onto -two: a removed line is on the new line where it was
    await eventually(m!.out, () => expect(text()).toContain('comment on src/a.ts:2:'));
    await m!.stdin.type('why upper case?', KEY.enter);
    await eventually(m!.out, () => expect(text()).toMatch(/^· src\/a\.ts:2: why upper case\?$/m));
    m!.stdin.press('}');
    await m!.stdin.type('j', 'j', 'c', 'test q', KEY.enter);
    await eventually(m!.out, () => expect(text()).toMatch(/^· new\.txt:1: test q$/m));
    m!.stdin.press('S');
    await eventually(m!.out, () => expect(footer()).toContain('2 comments sent to api (applied)'));
    expect(text()).toMatch(/^✓ src\/a\.ts:2: why upper case\?$/m);
    expect(text()).toMatch(/^✓ new\.txt:1: test q$/m);
    m!.stdin.press('S');
    await eventually(m!.out, () => expect(footer()).toContain('no unsent comments'));
    expect(m!.actions.runner(api.id).promptsSent()).toEqual(['src/a.ts:2: why upper case?\nnew.txt:1: test q']);
  });

  it('Esc in the comment field drops it; Esc with an unsent comment asks once more', async () => {
    await openDiff();
    await m!.stdin.type('j', 'j', 'c', 'draft');
    await eventually(m!.out, () => expect(text()).toContain('draft'));
    m!.stdin.press(KEY.esc);
    await eventually(m!.out, () => expect(text()).not.toContain('comment on'));
    expect(text()).toContain('diff of api');
    await m!.stdin.type('c', 'keep', KEY.enter);
    await eventually(m!.out, () => expect(text()).toMatch(/^· src\/a\.ts:1: keep$/m));
    m!.stdin.press(KEY.esc);
    await eventually(m!.out, () => expect(footer()).toContain('1 unsent comment: S sends them; Esc again drops them'));
    m!.stdin.press(KEY.esc);
    await eventually(m!.out, () => expect(text()).toContain('› ● api'));
  });

  it('a session without a worktree says so in one line', async () => {
    m = mountBoard(new FakeFeed([session({ name: 'plain' })]), { cols: 80, rows: 24 });
    await eventually(m.out, () => expect(text()).toContain('› ● plain'));
    m.stdin.press('D');
    await eventually(m.out, () => expect(footer()).toContain('plain has no worktree: D reviews sessions started with new --worktree'));
    expect(m.actions.calls).toEqual([]);
  });

  it('side by side on a wide terminal, and ? lists its keys from the table', async () => {
    await openDiff(160);
    expect(text()).toMatch(/^src\/a\.ts +\+3 -2 +src\/a\.ts {2}\+3 -2 *$/m);
    m!.stdin.press('?');
    await eventually(m!.out, () => expect(text()).toContain('next hunk'));
    expect(text()).toContain('send the comments as one prompt');
  });
});
