/**
 * The web hub's prompts, diffs and chat over real runners, and its pages under load: a prompt to
 * two sessions typed exactly once though the page dropped and sent it again (and a restarted
 * server asked once more), a worktree session's diff and a review comment, a room's chat, a slow
 * page that does not stall another on the same session, ten pages on one session.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeRepo } from './worktree-new-helpers.js';
import { cli, destroyHome, makeHome, newSession, peekLines, waitFor, waitForPeekLines } from '../helpers/home.js';
import { HubRig, pageScreen } from '../helpers/web-hub-rig.js';
import type { TestPage } from '../helpers/web-page.js';
import { PAGE_PAUSE_BYTES } from '../../src/web/server/hub/page-wire.js';

let home: string;
let rig: HubRig;
const extra: HubRig[] = [];
const tmp: string[] = [];
beforeEach(async () => {
  home = makeHome('ab-web-send-');
  rig = await HubRig.start(home);
});
afterEach(async () => {
  for (const r of extra.splice(0)) await r.stop();
  await rig.stop();
  destroyHome(home);
  for (const d of tmp.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

async function session(name: string, args: string[] = ['--', 'sh']): Promise<string> {
  const id = newSession(home, ['--name', name, ...args]);
  await waitFor(`${name} listed as running`, () => rig.feed.sessions.find((s) => s.id === id)?.status === 'running');
  return id;
}
const count = (lines: string[], line: string) => lines.filter((l) => l === line).length;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('web hub: prompts exactly once', () => {
  it('a prompt to two sessions is typed once into each, though the page dropped before the answer and sent it again, and a restarted server was asked too', async () => {
    const a = await session('one');
    const b = await session('two');
    const text = 'echo $((6*7))-once';
    const cmd = 'page-cmd-0001';
    const first = await rig.page();
    await first.sendFlushed({ t: 'send', cmd, ids: [a, b], text });
    first.ws.terminate(); // gone before any answer
    expect(first.of('sent')).toEqual([]);

    const again = await rig.page();
    again.send({ t: 'send', cmd, ids: [a, b], text });
    const sent = await again.until('both results', () => (again.of('sent').length === 2 ? again.of('sent') : null));
    expect(sent.map((s) => [s.id, s.status, s.cmd]).sort()).toEqual([
      [a, 'applied', cmd],
      [b, 'applied', cmd],
    ].sort());
    expect(sent.find((s) => s.id === a)?.line).toBe('typed into one');

    // A second server (the first one restarted) has no memory of it: the runners' journals answer.
    const restarted = await HubRig.start(home);
    extra.push(restarted);
    const third = await restarted.page();
    await waitFor('listed there', () => restarted.feed.sessions.filter((s) => s.status === 'running').length === 2);
    third.send({ t: 'send', cmd, ids: [a, b], text });
    const answered = await third.until('both again', () => (third.of('sent').length === 2 ? third.of('sent') : null));
    expect(answered.map((s) => s.status)).toEqual(['applied', 'applied']);

    for (const name of ['one', 'two']) await waitForPeekLines(home, name, 'the output', (l) => l.includes('42-once'));
    await pause(1000); // a second typing, if any, has had time to show
    for (const name of ['one', 'two']) expect(count(await peekLines(home, name), '42-once')).toBe(1);
  });

  it('an unknown target gets its own not_typed result; the others are typed', async () => {
    const a = await session('real');
    const page = await rig.page();
    page.send({ t: 'send', cmd: 'page-cmd-0002', ids: ['ghost', a], text: 'echo $((3*3))-mixed' });
    const sent = await page.until('both results', () => (page.of('sent').length === 2 ? page.of('sent') : null));
    expect(sent.find((s) => s.id === 'ghost')).toMatchObject({ status: 'not_typed' });
    expect(sent.find((s) => s.id === a)).toMatchObject({ status: 'applied' });
    await waitForPeekLines(home, 'real', 'the output', (l) => l.includes('9-mixed'));
  });
});

describe('web hub: diff, comments, chat', () => {
  it("the diff of a worktree session, and a review comment sent back to it once", async () => {
    const { root, repo } = makeRepo({ 'README.md': 'hello\n' });
    tmp.push(root);
    const id = await session('wt', ['--cwd', repo, '--worktree', '--', '/bin/sh']);
    const dir = rig.feed.sessions.find((s) => s.id === id)!.worktree!.path;
    fs.writeFileSync(path.join(dir, 'README.md'), 'hello\nfrom the agent\n');
    fs.writeFileSync(path.join(dir, 'new.txt'), 'one\ntwo\n');
    const page = await rig.page();
    page.send({ t: 'diff', ref: 'r1', id });
    const d = await page.next('diff', (f) => f.id === id);
    expect(d.diff.files.map((f) => [f.path, f.status]).sort()).toEqual([
      ['README.md', 'modified'],
      ['new.txt', 'added'],
    ]);
    expect([d.diff.added, d.diff.removed]).toEqual([3, 0]);

    page.send({ t: 'comment', cmd: 'review-0001', id, text: 'echo $((2*21))-reviewed' });
    page.send({ t: 'comment', cmd: 'review-0001', id, text: 'echo $((2*21))-reviewed' });
    const oks = await page.until('two answers', () => (page.of('ok').length === 2 ? page.of('ok') : null));
    expect(oks.map((o) => o.ref)).toEqual(['review-0001', 'review-0001']);
    await waitForPeekLines(home, 'wt', 'the comment', (l) => l.includes('42-reviewed'));
    await pause(800);
    expect(count(await peekLines(home, 'wt'), '42-reviewed')).toBe(1);
  });

  it("a page follows a room's chat and posts to it", async () => {
    await session('member');
    const page = await rig.page();
    page.send({ t: 'room', room: 'default' });
    page.send({ t: 'post', ref: 'p1', room: 'default', text: 'hello from the page' });
    const ok = await page.next('ok', (o) => o.ref === 'p1');
    expect(ok.line).toMatch(/^posted #\d+ to default/);
    const chat = await page.next('chat', (c) => c.records.some((r) => r.text === 'hello from the page'));
    expect(chat.room).toBe('default');
    expect(chat.records.find((r) => r.text === 'hello from the page')?.from).toBe('tester');
    expect(cli(home, ['chat', 'post', '--as', 'someone', 'and from the cli']).code).toBe(0);
    await page.next('chat', (c) => c.records.some((r) => r.text === 'and from the cli'));
  });
});

describe('web hub: many pages', () => {
  it("a cat's output reaches the page as a few large frames, one per read of the runner's socket, in order", async () => {
    const id = await session('cat');
    const file = path.join(home, 'big.txt');
    const lines = Array.from({ length: 40_000 }, (_, i) => `line ${i} of the file, padded to make it longer`);
    fs.writeFileSync(file, lines.join('\n') + '\nTHE-END\n');
    const p = await rig.page('typist');
    p.send({ t: 'open', id });
    await p.next('frame', (f) => f.id === id);
    const start = p.frames.length;
    p.send({ t: 'keys', id, data: `cat ${file}\r` });
    await p.until('the end of the file', () => p.terminalSince(id).includes('THE-END'), 30_000);
    // Counted on the out frames themselves: a page that fell behind under load gets a fresh frame,
    // after which terminalSince starts again, though every out before it was as large.
    const sent = p.frames.slice(start).filter((f) => f.t === 'out' && f.id === id).map((f) => (f as { data: string }).data.length);
    const outs = sent.length;
    const bytes = sent.reduce((a, b) => a + b, 0);
    console.log(`cat of ${bytes} characters: ${outs} out frames, ${Math.round(bytes / outs)} characters each`);
    // The runner writes its output in PTY-sized messages (4 KiB at most here); the page gets them joined per read.
    expect(bytes / outs).toBeGreaterThan(8192);
    expect(p.terminalSince(id)).toMatch(/line 39999 of the file[^]*THE-END/);
  });

  it('ten pages on one session all see its output', async () => {
    const id = await session('shared');
    const pages: TestPage[] = [];
    for (let i = 0; i < 10; i++) pages.push(await rig.page(i % 2 ? 'viewer' : 'typist'));
    for (const p of pages) p.send({ t: 'open', id });
    for (const p of pages) await p.next('frame', (f) => f.id === id);
    pages[0]!.send({ t: 'keys', id, data: 'echo $((7*11))-everyone\r' });
    for (const p of pages) await p.until('the output', () => p.terminalSince(id).includes('77-everyone'));
    for (const p of pages) expect(await pageScreen(p, id)).toContain('77-everyone');
  });

  it('a page that stops reading does not stall another on the same session, and gets a fresh frame when it reads again', async () => {
    const id = await session('flood');
    const slow = await rig.page();
    const fast = await rig.page('other');
    for (const p of [slow, fast]) p.send({ t: 'open', id });
    for (const p of [slow, fast]) await p.next('frame', (f) => f.id === id);
    // What the server holds for the slow page: its socket's backlog, watched all along.
    const server = rig.sockets.find((s) => s.device === 'typist')!.ws;
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, server.bufferedAmount)), 2);
    slow.ws.pause(); // the page's socket is no longer read: its TCP window and then the server's backlog fill
    const before = slow.frames.length;
    fast.send({ t: 'keys', id, data: 'seq 1 3000000; echo $((8*8))-done\r' });
    await fast.until('the end of the output on the fast page', () => fast.terminalSince(id).includes('64-done'), 120_000);
    clearInterval(watch);
    expect(slow.frames.length).toBe(before); // it read nothing meanwhile
    console.log(`the slow page's backlog on the server peaked at ${(most / 1024).toFixed(0)} KiB (of ~20 MiB printed)`);
    // The bridge stopped reading its runner past 1 MiB: the runner held the rest, and dropped it.
    expect(most).toBeGreaterThan(PAGE_PAUSE_BYTES);
    expect(most).toBeLessThan(4 * PAGE_PAUSE_BYTES);
    slow.ws.resume();
    await slow.until('a fresh frame on the slow page', () => slow.of('frame').length >= 2, 60_000);
    await slow.until('the end on the slow page', () => slow.terminalSince(id).includes('64-done'), 60_000);
    expect((await pageScreen(slow, id)).join('\n')).toContain('64-done');
  }, 240_000);
});
