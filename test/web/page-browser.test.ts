/**
 * The page (dist/bundle/web, built by `npm run build`) in a real browser, the system's chromium at
 * a phone's size (390x844, touch), against test/web/fixtures/mock-page-server.mjs, which speaks the
 * page's protocol with canned sessions: pairing, the rows, a waiting session answered with a
 * button, a session's frame with typing locked until unlocked, and a prompt typed while the server
 * was down sent once when it is back. (The real server's own end-to-end tests are beside it.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { browserSkip, launchChromium, PHONE, sayIfNotRun, type Browser } from '../helpers/browser.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MOCK = path.join(ROOT, 'test', 'web', 'fixtures', 'mock-page-server.mjs');

sayIfNotRun('the page against the mock server in chromium (test/web/page-browser.test.ts)');

interface Mock {
  child: ChildProcess;
  url: string;
  /** Every page message the mock received, in order. */
  got: Array<Record<string, unknown>>;
}

/** Starts the mock (port 0: a free one) and waits for the line that says where it listens. */
function startMock(port: number): Promise<Mock> {
  const child = spawn(process.execPath, [MOCK, '--port', String(port), '--unpaired'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const got: Mock['got'] = [];
  return new Promise((resolve, reject) => {
    let buf = '';
    child.once('exit', (code) => reject(new Error(`the mock server exited (${code})`)));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        const m = /on (http:\S+)/.exec(line);
        if (m) resolve({ child, url: m[1]!, got });
        if (line.startsWith('got ')) got.push(JSON.parse(line.slice(4)) as Record<string, unknown>);
      }
    });
  });
}

function stopMock(m: Mock): Promise<void> {
  if (m.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    m.child.removeAllListeners('exit');
    m.child.once('exit', () => resolve());
    m.child.kill('SIGTERM');
  });
}

let browser: Browser;
let mock: Mock;
const pages: Page[] = [];

beforeAll(async () => {
  if (browserSkip) return;
  browser = await launchChromium();
  mock = await startMock(0);
});
afterEach(async () => {
  for (const p of pages.splice(0)) await p.context().close();
});
afterAll(async () => {
  await browser?.close();
  if (mock) await stopMock(mock);
});

/** A phone's page, paired (the cookie the mock's pairing sets), on `hash`. */
async function pairedPhone(hash = ''): Promise<Page> {
  const ctx = await browser.newContext(PHONE);
  await ctx.addCookies([{ name: 'ab_device', value: 'mock', url: mock.url }]);
  const page = await ctx.newPage();
  pages.push(page);
  await page.goto(`${mock.url}${hash}`);
  return page;
}

describe.skipIf(browserSkip !== null)('the page on a phone', () => {
  it('an unpaired browser gets the pairing form; a wrong code says why; the right one shows the sessions', async () => {
    const ctx = await browser.newContext(PHONE);
    const page = await ctx.newPage();
    pages.push(page);
    await page.goto(mock.url);
    await page.locator('input[name=code]').fill('WRONG1');
    await page.getByRole('button', { name: 'Pair' }).click();
    await expect.poll(() => page.locator('.pair .err').textContent()).toContain('wrong or expired');
    await page.locator('input[name=code]').fill('ABC123');
    await page.getByRole('button', { name: 'Pair' }).click();
    await page.locator('.row').first().waitFor();
    expect(await page.locator('.row').count()).toBe(6);
    // The waiting session first, unreachable hosts said above the list.
    expect(await page.locator('.row').first().getAttribute('data-id')).toBe('a1');
    expect(await page.locator('.banner.host-line').textContent()).toContain('gpu: unreachable');
  });

  it('#pair=CODE fills the form by itself', async () => {
    const ctx = await browser.newContext(PHONE);
    const page = await ctx.newPage();
    pages.push(page);
    await page.goto(`${mock.url}#pair=ABC123`);
    expect(await page.locator('input[name=code]').inputValue()).toBe('ABC123');
  });

  it("a sandboxed session's row has the mark after its name, its title saying how", async () => {
    const page = await pairedPhone();
    const mark = page.locator('.row[data-id="b2"] .sandbox');
    expect(await mark.textContent()).toBe('▣');
    expect(await mark.getAttribute('title')).toBe('sandboxed: bwrap, network allowlist');
    expect(await page.locator('.row[data-id="a1"] .sandbox').count()).toBe(0);
  });

  it("a waiting session's option is a button that answers it", async () => {
    const page = await pairedPhone();
    await page.locator('.row[data-id="a1"] .opt', { hasText: "don't ask again" }).click();
    await expect.poll(() => mock.got.some((m) => m.t === 'answer' && m.id === 'a1' && m.n === 2)).toBe(true);
  });

  it('#s=<id> opens the session on its frame, typing locked until unlocked, then keys go to it', async () => {
    const page = await pairedPhone('#s=b2');
    await expect.poll(() => page.locator('.xterm-rows').textContent()).toContain('Do you want to make this edit');
    await page.locator('.xterm').tap();
    await page.keyboard.type('x');
    const typed = () => mock.got.filter((m) => m.t === 'keys' && m.id === 'b2').map((m) => m.data);
    expect(typed()).toEqual([]);
    await page.getByRole('button', { name: /locked/ }).tap();
    await page.locator('.keybar button[title="Ctrl-C"]').tap();
    await page.locator('.xterm').tap();
    await page.keyboard.type('y');
    await expect.poll(typed).toEqual(['\x03', 'y']);
  });

  it('on a desktop a session opens ready to type: keys go to it at once', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await ctx.addCookies([{ name: 'ab_device', value: 'mock', url: mock.url }]);
    const page = await ctx.newPage();
    pages.push(page);
    await page.goto(`${mock.url}#s=d4`);
    await expect.poll(() => page.locator('.xterm-rows').textContent()).toContain('Claude Code');
    await page.locator('.xterm').click();
    await page.keyboard.type('ls');
    await expect.poll(() => mock.got.filter((m) => m.t === 'keys' && m.id === 'd4').map((m) => m.data)).toEqual(['l', 's']);
    expect(await page.locator('.keybar').count()).toBe(0);
  });

  it("the service worker shows a push as a notification: one per session, opening only this site's pages", async () => {
    const ctx = await browser.newContext();
    await ctx.grantPermissions(['notifications'], { origin: new URL(mock.url).origin });
    const page = await ctx.newPage();
    pages.push(page);
    const cdp = await ctx.newCDPSession(page);
    const registered = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: Array<{ registrationId: string; isDeleted: boolean }> }) => {
        const r = e.registrations.find((x) => !x.isDeleted);
        if (r) resolve(r.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    await page.goto(mock.url);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const registrationId = await registered;
    const push = (payload: object) => cdp.send('ServiceWorker.deliverPushMessage', { origin: new URL(mock.url).origin, registrationId, data: JSON.stringify(payload) });
    await push({ title: 'api-refactor needs you', body: 'Do you want to make this edit?', id: 'a1', url: '/#s=a1' });
    await push({ title: 'api-refactor is done', body: 'all green', id: 'a1', url: '/#s=a1' });
    await push({ title: 'tests is done', body: 'ok', id: 'b2', url: 'https://elsewhere.example/' });
    const shown = () =>
      page.evaluate(async () => {
        const r = await navigator.serviceWorker.ready;
        return (await r.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: (n.data as { url: string }).url }));
      });
    await expect.poll(async () => (await shown()).length).toBe(2);
    expect(await shown()).toEqual([
      { title: 'api-refactor is done', body: 'all green', tag: 'a1', url: '/#s=a1' },
      { title: 'tests is done', body: 'ok', tag: 'b2', url: '/' },
    ]);
  });

  it('a prompt typed while the server is down goes once when it is back, and the session is opened again', async () => {
    const page = await pairedPhone('#s=a1');
    await expect.poll(() => page.locator('.xterm-rows').textContent()).toContain('Claude Code');
    const port = Number(new URL(mock.url).port);
    await stopMock(mock);
    await page.locator('.banner.reconnecting').waitFor();
    await page.getByRole('button', { name: 'prompt' }).tap();
    await page.locator('.session-view .prompt textarea').fill('run the tests');
    await page.locator('.session-view').getByRole('button', { name: 'Send' }).tap();
    mock = await startMock(port);
    await expect.poll(() => page.locator('.session-view .sends').textContent(), { timeout: 20_000 }).toContain('applied');
    expect(await page.locator('.banner.reconnecting').count()).toBe(0);
    const sends = mock.got.filter((m) => m.t === 'send');
    expect(sends).toHaveLength(1);
    expect(sends[0]).toMatchObject({ ids: ['a1'], text: 'run the tests' });
    expect(mock.got[0]).toEqual({ t: 'open', id: 'a1' });
  });
});
