/**
 * The board in a browser, end to end: the real `agent-board web` server (started detached by the
 * CLI in a temporary home), real runners with real shells, a Claude-like program that asks a real
 * dialog (test/fixtures/programs/turns.mjs), a real git worktree, and the page in Debian's
 * chromium driven by playwright-core, at a desktop's size and at a phone's (390x844, touch).
 * What reaches a session is checked with `agent-board peek`, not with the page: the page could be
 * wrong about what it typed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSkip, DESKTOP, launchChromium, PHONE, sayIfNotRun, type Browser, type BrowserContext } from '../helpers/browser.js';
import { cli, makeHome, newSession, peekLines, waitFor, waitForPeekLines } from '../helpers/home.js';
import { PushService } from '../helpers/push-service.js';
import { startTurns } from '../helpers/turns.js';
import { originOf, pairCode, serverInfo, stopWeb } from '../integration/web-server-helpers.js';
import type { Page } from 'playwright-core';

sayIfNotRun('the web page in chromium (test/web/web-e2e.test.ts)');

const SHELL = ['--', 'bash', '--norc', '--noprofile', '-i'];
const PS1 = { PS1: '$ ' };

let home: string;
let url: string;
let browser: Browser;
let push: PushService;
const ids: Record<string, string> = {};
let asker: { id: string; control: string };

/** `git` in a folder, quiet, with an identity (the temp home has no config). */
const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

function startServer(port = 0): void {
  const r = cli(home, ['web', '--port', String(port)], { env: { NODE_EXTRA_CA_CERTS: push.caFile } });
  if (r.code !== 0) throw new Error(`web failed (${r.code}): ${r.stderr}`);
  url = serverInfo(home).url;
}

beforeAll(async () => {
  if (browserSkip) return;
  home = makeHome('ab-web-e2e-');
  push = await PushService.start();
  for (const name of ['one', 'two', 'three']) ids[name] = newSession(home, ['--name', name, ...SHELL]);
  asker = startTurns(home, 'asker');
  const repo = path.join(home, 'repo');
  fs.mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(repo, 'greeting.txt'), 'hello\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'init');
  ids.wt = newSession(home, ['--name', 'feature', '--worktree', '--cwd', repo, ...SHELL]);
  const wtPath = (JSON.parse(cli(home, ['ls', '--json']).stdout) as Array<{ id: string; worktree?: { path: string } }>).find((s) => s.id === ids.wt)!.worktree!.path;
  fs.writeFileSync(path.join(wtPath, 'greeting.txt'), 'hello\nfrom the worktree\n');
  git(wtPath, 'commit', '-qam', 'a second line');
  for (const name of ['one', 'two', 'three', 'feature']) cli(home, ['send', name, 'export PS1="$ "']);
  startServer();
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  if (browserSkip) return;
  await browser?.close();
  stopWeb(home);
  await push?.close();
  for (const name of ['one', 'two', 'three', 'feature', 'asker']) cli(home, ['kill', name]);
});

/** A paired browser: the page's own pairing form, filled from `#pair=` (a QR code's link). */
async function pairedPage(kind: 'desktop' | 'phone'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(kind === 'phone' ? PHONE : DESKTOP);
  const page = await context.newPage();
  await page.goto(`${url}#pair=${pairCode(home)}`);
  await page.locator('.pair button[type=submit]').click();
  await page.locator('.row .name', { hasText: 'one' }).first().waitFor();
  return { context, page };
}

const row = (page: Page, id: string) => page.locator(`li.row[data-id="${id}"]`);
/** The open session's terminal text, as xterm.js drew it. */
const termText = (page: Page) => page.locator('.term-host .xterm-rows').innerText();

/** Lines of a session's screen that are exactly `text` (a command's output, not its echo). */
async function outputLines(name: string, text: string): Promise<number> {
  return (await peekLines(home, name)).filter((l) => l.trim() === text).length;
}

describe.skipIf(browserSkip !== null)('the web page with the real server, at a desktop size', () => {
  let page: Page;
  let context: BrowserContext;

  beforeAll(async () => {
    ({ context, page } = await pairedPage('desktop'));
  });
  afterAll(() => context?.close());

  it('pairs with the one-time code and keeps the device as an HttpOnly, SameSite=Strict cookie; the rows are the real sessions', async () => {
    const cookie = (await context.cookies()).find((c) => c.name === 'ab_device');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    for (const name of ['one', 'two', 'three', 'feature', 'asker']) await expect(page.locator('.row .name', { hasText: name }).count()).resolves.toBeGreaterThan(0);
    await expect(row(page, ids.wt!).locator('.worktree').innerText()).resolves.toContain('agent/feature');
    const devices = cli(home, ['web', 'devices', '--json']);
    expect(JSON.parse(devices.stdout)).toHaveLength(1);
  });

  it('opens a session on its exact screen and what is typed reaches its shell', async () => {
    cli(home, ['send', 'one', 'echo before-the-page']);
    await waitForPeekLines(home, 'one', 'the echo', (l) => l.includes('before-the-page'));
    await row(page, ids.one!).locator('.row-open').click();
    await waitFor('the first frame', async () => (await termText(page)).includes('before-the-page'));
    await page.locator('.term-host').click();
    await page.keyboard.type('echo typed-in-$((6*7))\n');
    await waitForPeekLines(home, 'one', 'the typed command ran', (l) => l.some((x) => x.trim() === 'typed-in-42'));
    await page.locator('.term-host .xterm-rows', { hasText: 'typed-in-42' }).waitFor();
  });

  it('answers a real dialog with a button, as 1-9 do on the board', async () => {
    fs.appendFileSync(asker.control, 'ask\n');
    const yes = row(page, asker.id).locator('.dialog .opt', { hasText: 'Yes' });
    await yes.waitFor({ timeout: 15_000 });
    await expect(row(page, asker.id).locator('.question').innerText()).resolves.toContain('Do you want to proceed?');
    await yes.click();
    await waitForPeekLines(home, 'asker', 'the dialog answered', (l) => l.includes('answered'));
    await row(page, asker.id).locator('.dialog').waitFor({ state: 'detached' });
  });

  it('sends a prompt to two marked sessions exactly once and shows each result', async () => {
    await page.goto(`${url}#`);
    await row(page, ids.two!).locator('input[type=checkbox]').check();
    await row(page, ids.three!).locator('input[type=checkbox]').check();
    await page.locator('.prompt textarea').fill('echo once-$((40+2))');
    await page.locator('.prompt button[type=submit]').click();
    const results = page.locator('.sends .result .status', { hasText: 'applied' });
    await waitFor('both applied', async () => (await results.count()) === 2, 20_000);
    for (const name of ['two', 'three']) {
      await waitForPeekLines(home, name, 'the prompt ran', (l) => l.some((x) => x.trim() === 'once-42'));
      expect(await outputLines(name, 'once-42'), `${name} ran the prompt once`).toBe(1);
    }
    expect(await outputLines('one', 'once-42'), 'an unmarked session got nothing').toBe(0);
  });

  it("reads a worktree session's diff", async () => {
    await page.goto(`${url}#d=${encodeURIComponent(ids.wt!)}`);
    await page.locator('.diff-file .path', { hasText: 'greeting.txt' }).waitFor();
    await expect(page.locator('.dl.add', { hasText: 'from the worktree' }).count()).resolves.toBe(1);
  });

  it("comments on a diff's line and sends them back to the session as one prompt, once", async () => {
    await page.goto(`${url}#d=${encodeURIComponent(ids.wt!)}`);
    await page.locator('.dl.add', { hasText: 'from the worktree' }).click();
    await page.locator('.comment-edit textarea').fill('say-it-louder');
    await page.locator('.comment-edit button[type=submit]').click();
    await page.locator('.diff-foot button.primary').click();
    await page.locator('.diff-foot').waitFor({ state: 'detached' });
    // The shell takes the comment as a command line: it is typed once, where the file and line say.
    const lines = await waitForPeekLines(home, 'feature', 'the comment typed', (l) => l.some((x) => x.includes('greeting.txt:2: say-it-louder')));
    expect(lines.filter((x) => x.includes('say-it-louder') && x.startsWith('$ '))).toHaveLength(1);
  });

  it("posts to the room's chat as the human and shows what others say", async () => {
    cli(home, ['chat', 'post', '--room', 'default', 'hello from the terminal']);
    await page.goto(`${url}#c=default`);
    await page.locator('.chat-view .msg .text', { hasText: 'hello from the terminal' }).waitFor();
    await page.locator('.chat-post textarea').fill('hello from the page');
    await page.locator('.chat-post button[type=submit]').click();
    await page.locator('.chat-view .msg .text', { hasText: 'hello from the page' }).waitFor();
    const read = cli(home, ['chat', 'read', '--room', 'default']);
    expect(read.stdout).toContain('hello from the page');
  });

  it('says "Reconnecting" while the server is down and comes back to the same device, sessions running', async () => {
    const port = serverInfo(home).port;
    await page.goto(`${url}#`);
    await page.locator('.row .name', { hasText: 'one' }).first().waitFor();
    expect(cli(home, ['web', '--stop']).code).toBe(0);
    await page.locator('.banner.reconnecting').waitFor();
    const states = JSON.parse(cli(home, ['ls', '--json']).stdout) as Array<{ name: string; status: string }>;
    expect(states.filter((s) => s.status !== 'exited' && s.status !== 'lost')).toHaveLength(5);
    startServer(port);
    await page.locator('.banner.reconnecting').waitFor({ state: 'detached', timeout: 20_000 });
    await expect(page.locator('.pair').count()).resolves.toBe(0); // the same device, not paired again
  });
});

describe.skipIf(browserSkip !== null)('the web page at a phone size (390x844, touch)', () => {
  let page: Page;
  let context: BrowserContext;

  beforeAll(async () => {
    ({ context, page } = await pairedPage('phone'));
  });
  afterAll(() => context?.close());

  it('opens a session read-only until typing is unlocked, then the key bar types', async () => {
    await row(page, ids.one!).locator('.row-open').tap();
    await page.locator('.term-host .xterm-rows').waitFor();
    const lock = page.locator('.term-tools button.locked');
    await lock.waitFor();
    await page.locator('.term-host').tap();
    await page.keyboard.type('echo locked-out\n');
    await lock.tap(); // unlock
    await page.locator('.term-tools button.unlocked').waitFor();
    await page.locator('.term-host').tap();
    await page.keyboard.type('echo from-the-phone');
    await page.locator('.keybar button[title=Enter]').tap();
    await waitForPeekLines(home, 'one', 'the phone typed', (l) => l.some((x) => x.trim() === 'from-the-phone'));
    expect((await peekLines(home, 'one')).some((l) => l.includes('locked-out')), 'nothing typed while locked').toBe(false);
    // A phone attached never shrinks the session: it keeps the size it had.
    const size = (JSON.parse(cli(home, ['ls', '--json']).stdout) as Array<{ id: string; cols: number; rows: number }>).find((s) => s.id === ids.one);
    expect(size).toMatchObject({ cols: 80, rows: 24 });
  });

  it('answers a dialog with a tap and sends a prompt to two marked sessions exactly once', async () => {
    await page.goto(`${url}#`);
    fs.appendFileSync(asker.control, 'ask\n');
    const no = row(page, asker.id).locator('.dialog .opt', { hasText: 'No' });
    await no.waitFor({ timeout: 15_000 });
    await no.tap();
    await waitFor('the asker is back at its prompt', async () => (await row(page, asker.id).locator('.dialog').count()) === 0, 15_000);
    await row(page, ids.two!).locator('input[type=checkbox]').tap();
    await row(page, ids.three!).locator('input[type=checkbox]').tap();
    await page.locator('.prompt textarea').fill('echo phone-$((50+5))');
    await page.locator('.prompt button[type=submit]').tap();
    await waitFor('both applied', async () => (await page.locator('.sends .result .status', { hasText: 'applied' }).count()) === 2, 20_000);
    for (const name of ['two', 'three']) {
      await waitForPeekLines(home, name, 'the prompt ran', (l) => l.some((x) => x.trim() === 'phone-55'));
      expect(await outputLines(name, 'phone-55')).toBe(1);
    }
  });

  it('reads the diff at a phone size', async () => {
    await page.goto(`${url}#d=${encodeURIComponent(ids.wt!)}`);
    await page.locator('.dl.add', { hasText: 'from the worktree' }).waitFor();
  });
});

describe.skipIf(browserSkip !== null)('push notifications from the real server', () => {
  it("a session that asks sends a Web Push whose decrypted text names it and carries its question", async () => {
    const { cookie } = await pairOverHttp();
    const ws = new WebSocket(url.replace(/^http/, 'ws') + 'api/ws', { headers: { Cookie: cookie, Origin: originOf(url) } });
    await new Promise<void>((resolve, reject) => (ws.once('open', () => resolve()), ws.once('error', reject)));
    const sub = push.subscription('phone-e2e');
    ws.send(JSON.stringify({ t: 'subscribe', sub }));
    const pushJson = path.join(home, 'web', 'push.json');
    await waitFor('the subscription kept', () => fs.existsSync(pushJson) && fs.readFileSync(pushJson, 'utf8').includes('phone-e2e'));
    expect(fs.statSync(pushJson).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(home, 'web', 'vapid.json')).mode & 0o777).toBe(0o600);
    fs.appendFileSync(asker.control, 'ask\n');
    const got = await waitFor('a push', () => push.delivered.find((d) => d.name === 'phone-e2e' && d.payload.title.startsWith('asker')), 20_000);
    expect(got.payload).toMatchObject({ title: 'asker needs you', id: asker.id, url: `/#s=${encodeURIComponent(asker.id)}` });
    expect(got.payload.body).toContain('Do you want to proceed?');
    expect(got.payload.body).toContain('1. Yes');
    ws.close();
    cli(home, ['send', 'asker', '1']);
  });
});

/** A device paired without a browser (the push test's page is a plain WebSocket). */
async function pairOverHttp(): Promise<{ cookie: string }> {
  const r = await fetch(`${url}api/pair`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: originOf(url) }, body: JSON.stringify({ code: pairCode(home), name: 'push test' }) });
  if (r.status !== 200) throw new Error(`pairing failed: ${r.status} ${await r.text()}`);
  return { cookie: r.headers.getSetCookie()[0]!.split(';')[0]! };
}
