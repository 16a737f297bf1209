/**
 * The web hub (src/web/server/hub) over real runners with real shells: the list a page gets and
 * keeps current, a session's terminal opened on the page (an exact first frame, keys in order),
 * and the refusals (a read-only device, an unknown session, a flood of bad frames, a revoked
 * device), each leaving the page's socket, or the other pages, going on.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fetchSnapshot } from '../../src/client/screen/fetch-snapshot.js';
import { connectSession } from '../../src/client/session/sessions.js';
import { REAL_TIME } from '../helpers/real-time.js';
import type { WebRow } from '../../src/core/web/web-protocol.js';
import { FRAME_CLEAR } from '../../src/web/server/hub/terminal-bridge.js';
import { cli, cliAsync, destroyHome, makeHome, newSession, peekLines, waitFor, waitForPeekLines } from '../helpers/home.js';
import { HubRig, pageScreen } from '../helpers/web-hub-rig.js';

let home: string;
let rig: HubRig;
beforeEach(async () => {
  home = makeHome('ab-web-hub-');
  rig = await HubRig.start(home);
});
afterEach(async () => {
  await rig.stop();
  destroyHome(home);
});

/** A shell session, once the hub's feed lists it running (a page can only name what the list has). */
async function shell(name: string): Promise<string> {
  const id = newSession(home, ['--name', name, '--', 'sh']);
  await waitFor(`${name} listed as running`, () => rig.feed.sessions.find((s) => s.id === id)?.status === 'running');
  return id;
}
const row = (rows: WebRow[] | undefined, id: string) => rows?.find((r) => r.id === id);

describe('web hub: the list', () => {
  it('a page gets welcome, then the rows of the real sessions, and new rows when a session changes', async () => {
    const id = await shell('alpha');
    const page = await rig.page();
    await page.until('rows', () => page.of('rows').length > 0);
    expect(page.frames[0]).toMatchObject({ t: 'welcome', device: 'dev-typist', name: 'laptop', readOnly: false, quiet: false, vapidKey: null, version: 'test' });
    expect(page.frames[1]?.t).toBe('rows');
    const first = page.of('rows')[0]!;
    expect(row(first.rows, id)).toMatchObject({ id, name: 'alpha', kind: 'shell', room: 'default', worktree: null, dialog: null, muted: false });
    expect(Number.isNaN(Date.parse(first.now))).toBe(false);

    expect(cli(home, ['rename', 'alpha', 'beta']).code).toBe(0);
    await page.until('the new name', () => row(page.of('rows').at(-1)?.rows, id)?.name === 'beta');

    // Output reaches the row's last line (the prompt comes after it on the same line) and its time of output.
    expect((await cliAsync(home, ['send', 'beta', 'printf row-line-$((40+2))'])).code).toBe(0);
    const last = await page.until('the last line', () => {
      const r = row(page.of('rows').at(-1)?.rows, id);
      return r?.lastLine.includes('row-line-42') ? r : null;
    });
    expect(last.lastOutputAt).not.toBeNull();
    expect(['busy', 'idle', 'starting']).toContain(last.state);
  });

  it('mute marks the row for that device only', async () => {
    const id = await shell('quiet-one');
    const a = await rig.page('typist');
    const b = await rig.page('other');
    await b.until('rows', () => b.of('rows').length > 0);
    a.send({ t: 'mute', id, muted: true });
    await a.until('muted', () => row(a.of('rows').at(-1)?.rows, id)?.muted === true);
    cli(home, ['rename', 'quiet-one', 'still-quiet']);
    await b.until('renamed on b', () => row(b.of('rows').at(-1)?.rows, id)?.name === 'still-quiet');
    expect(row(b.of('rows').at(-1)?.rows, id)?.muted).toBe(false);
    await a.until('renamed on a', () => row(a.of('rows').at(-1)?.rows, id)?.name === 'still-quiet');
    expect(row(a.of('rows').at(-1)?.rows, id)?.muted).toBe(true);
  });
});

describe('web hub: a waiting session', () => {
  it("a waiting session's row carries its question; answer types the digit into it, as 1-9 do on the board", async () => {
    // A claude-kind session whose screen shows Claude's API-key dialog: its screen rule says waiting.
    const script = 'printf "Do you want to use this API key?\\n  1. Yes\\n  2. No\\n"; read x; echo "picked-$x"; sleep 600';
    const id = newSession(home, ['--agent', 'claude', '--name', 'asker', '--command', '/bin/sh', '--', '-c', script]);
    await waitFor('waiting', () => rig.feed.sessions.find((s) => s.id === id)?.activity === 'waiting', 20_000);
    const page = await rig.page();
    await page.until('the waiting row', () => page.of('rows').at(-1)?.rows.find((r) => r.id === id)?.state === 'waiting');
    expect(page.of('rows').at(-1)?.rows.find((r) => r.id === id)?.dialog).toBeNull(); // nothing read yet
    const question = { question: 'Do you want to use this API key?', options: [{ number: 1, label: 'Yes', selected: false }, { number: 2, label: 'No', selected: false }] };
    rig.questions.set(id, question);
    await page.until('the question on the row', () => page.of('rows').at(-1)?.rows.find((r) => r.id === id)?.dialog?.question === question.question);

    const idle = await shell('not-asked');
    page.send({ t: 'answer', id: idle, n: 1 });
    expect((await page.next('error')).line).toMatch(/not-asked is not waiting/);
    page.send({ t: 'answer', id, n: 2 });
    expect((await page.next('ok')).line).toBe('typed 2 into asker');
    page.send({ t: 'keys', id, data: '\r' }); // not opened on this page: refused
    await page.until('refused', () => page.of('error').length === 2);
    // The digit went on a keys connection of its own; Enter from a page that opened it ends the read.
    page.send({ t: 'open', id });
    await page.next('frame', (f) => f.id === id);
    page.send({ t: 'keys', id, data: '\r' });
    await waitForPeekLines(home, 'asker', 'the answer', (l) => l.includes('picked-2'));
  });
});

describe('web hub: a terminal on the page', () => {
  it("open gives the runner's exact screen as the first frame, and keys typed on the page reach the shell in order", async () => {
    const id = await shell('term');
    cli(home, ['send', 'term', 'printf "\\033[1;31mred\\033[0m plain\\n"']);
    await waitForPeekLines(home, 'term', 'the printf', (l) => l.some((x) => x === 'red plain'));
    const page = await rig.page();
    page.send({ t: 'open', id });
    const frame = await page.next('frame', (f) => f.id === id);
    expect(frame.data.startsWith(FRAME_CLEAR)).toBe(true);
    // The runner's own snapshot of the same (quiet) screen, asked on a connection of the test's: the same bytes.
    const conn = await connectSession(home, rig.feed.sessions.find((s) => s.id === id)!, 'test-snapshot', REAL_TIME, true);
    const snap = await fetchSnapshot(conn, 0).finally(() => conn.dispose());
    expect(frame.data).toBe(FRAME_CLEAR + snap.frame);
    expect([frame.cols, frame.rows]).toEqual([snap.cols, snap.rows]);
    const [peeked, shown] = [await peekLines(home, 'term'), await pageScreen(page, id)];
    expect(shown.slice(0, peeked.length)).toEqual(peeked);
    expect(frame.data).toContain('\x1b[');

    // One frame per character, as a phone's keyboard sends them.
    const typed = 'echo in-order-0123456789-abcdefghij';
    for (const ch of typed) page.send({ t: 'keys', id, data: ch });
    page.send({ t: 'keys', id, data: '\r' });
    await waitForPeekLines(home, 'term', 'the echo', (l) => l.includes('in-order-0123456789-abcdefghij'));
    const screen = await waitFor('the page shows it', () => page.terminalSince(id).includes('in-order-0123456789-abcdefghij') || null);
    expect(screen).toBe(true);
    const lines = await pageScreen(page, id);
    expect(lines).toContain('in-order-0123456789-abcdefghij');
    expect(lines.some((l) => l.endsWith(typed))).toBe(true);
    expect(page.of('error')).toEqual([]);
  });

  it('resize asked on the page sizes the session; the page hears the size and gets a fresh frame at it', async () => {
    const id = await shell('sized');
    const page = await rig.page();
    const watcher = await rig.page('viewer');
    for (const p of [page, watcher]) p.send({ t: 'open', id });
    const first = await page.next('frame', (f) => f.id === id);
    await watcher.next('frame', (f) => f.id === id);
    expect([first.cols, first.rows]).not.toEqual([91, 27]);
    page.send({ t: 'resize', id, cols: 91, rows: 27 });
    await page.next('size', (f) => f.cols === 91 && f.rows === 27);
    await page.next('frame', (f) => f.cols === 91 && f.rows === 27);
    await waitFor('the session took it', () => rig.feed.sessions.find((s) => s.id === id)?.cols === 91);
    // Another page on the same session follows the size it did not ask for, with a fresh frame at it.
    await watcher.next('size', (f) => f.cols === 91 && f.rows === 27);
    await watcher.next('frame', (f) => f.cols === 91 && f.rows === 27);
  });

  it('the exit of the program reaches the page as one exit frame', async () => {
    const id = await shell('leaving');
    const page = await rig.page();
    page.send({ t: 'open', id });
    await page.next('frame', (f) => f.id === id);
    page.send({ t: 'keys', id, data: 'exit 3\r' });
    const exit = await page.next('exit', (f) => f.id === id);
    expect(exit.line).toBe('exited (exit code 3)');
    await page.until('the row says so', () => page.of('rows').at(-1)?.rows.find((r) => r.id === id)?.stateText === 'exited 3');
    expect(page.of('exit')).toHaveLength(1);
  });

  it("a read-only device sees the frame but its keys are refused with an error frame, and its socket goes on", async () => {
    const id = await shell('look');
    const page = await rig.page('viewer');
    await page.until('welcome', () => page.of('welcome')[0]?.readOnly === true);
    page.send({ t: 'open', id });
    await page.next('frame', (f) => f.id === id);
    page.send({ t: 'keys', id, data: 'echo should-not-run\r' });
    const err = await page.next('error');
    expect(err.line).toMatch(/read-only/);
    page.send({ t: 'send', cmd: 'viewer-cmd-1', ids: [id], text: 'echo nope' });
    await page.until('the second refusal', () => page.of('error').length === 2);
    // The socket goes on: it still reads and is answered.
    page.send({ t: 'mute', id, muted: true });
    await page.until('muted row', () => page.of('rows').at(-1)?.rows.find((r) => r.id === id)?.muted === true);
    expect(page.closed).toBeNull();
    expect((await peekLines(home, 'look')).join('\n')).not.toContain('should-not-run');
  });

  it('an unknown session, a bad frame and a frame for a session not opened each get one error frame; the socket goes on', async () => {
    const id = await shell('known');
    const page = await rig.page();
    page.send({ t: 'open', id: 'nosuchsession' });
    expect((await page.next('error')).line).toMatch(/no session "nosuchsession"/);
    page.sendRaw('{not json');
    await page.until('two errors', () => page.of('error').length === 2);
    page.send({ t: 'keys', id, data: 'x' });
    await page.until('three errors', () => page.of('error').length === 3);
    expect(page.of('error')[2]!.line).toMatch(/open known first/);
    page.send({ t: 'diff', ref: 'd1', id });
    const noTree = await page.until('the diff refusal', () => page.of('error').find((e) => e.ref === 'd1'));
    expect(noTree.line).toMatch(/no worktree/);
    page.send({ t: 'open', id });
    await page.next('frame', (f) => f.id === id);
    expect(page.closed).toBeNull();
  });

  it('more than 20 bad frames in 10 s close that socket only (1008); another page goes on', async () => {
    const id = await shell('flood');
    const calm = await rig.page('other');
    const flood = await rig.page();
    await flood.until('rows', () => flood.of('rows').length > 0);
    for (let i = 0; i < 20; i++) flood.sendRaw('nope');
    await flood.until('20 errors', () => flood.of('error').length === 20);
    expect(flood.closed).toBeNull();
    flood.sendRaw('nope');
    await flood.until('closed', () => flood.closed);
    expect(flood.closed?.code).toBe(1008);
    calm.send({ t: 'open', id });
    await calm.next('frame', (f) => f.id === id);
    expect(calm.closed).toBeNull();
    await waitFor('one page left', () => rig.hub.pageCount === 1);
  });

  it("revoke closes that device's sockets at once with 4401, and no other's", async () => {
    const id = await shell('rev');
    const a1 = await rig.page('typist');
    const a2 = await rig.page('typist');
    const b = await rig.page('other');
    a1.send({ t: 'open', id });
    await a1.next('frame', (f) => f.id === id);
    rig.hub.revoke('dev-typist');
    await a1.until('a1 closed', () => a1.closed);
    await a2.until('a2 closed', () => a2.closed);
    expect([a1.closed?.code, a2.closed?.code]).toEqual([4401, 4401]);
    b.send({ t: 'open', id });
    await b.next('frame', (f) => f.id === id);
    expect(b.closed).toBeNull();
    expect(rig.hub.pageCount).toBe(1);
  });
});
