// The browser half of the web benchmark (bench/web.mjs): one headless chromium (Debian's, through
// playwright-core, no browser download) drives every page, wetty's and ours; the measuring code in
// the page is bench/web-probe.mjs.
import { chromium } from 'playwright-core';
import { percentile, sleep } from './lib.mjs';
import { probeScript } from './web-probe.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/helpers/chromium.mjs';

/** A desktop window: both pages fit their terminal to it (ours is made at the size wetty's terminal got). */
export const VIEWPORT = { width: 1280, height: 800 };
/** The prompt both shells print (bash --norc with PS1 from the environment). */
export const PROMPT = 'PROMPT> ';

export async function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * A page in a context of its own (cold cache, no service worker of an earlier load), with the
 * probe installed. `side`: { label, url, handle, rowsSelector, noWebgl, storageState?, focusSelector }.
 */
export async function openPage(browser, side, load) {
  const context = await browser.newContext({ viewport: VIEWPORT, storageState: side.storageState, serviceWorkers: 'block' });
  await context.addInitScript({ content: probeScript({ handle: side.handle, rowsSelector: side.rowsSelector, noWebgl: !!side.noWebgl, load }) });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { page, context, errors, close: () => context.close() };
}

/** Loads `url` in a fresh context and resolves with the ms from navigation start to `load` (see web-probe) holding. */
export async function timeLoad(browser, side, url, load) {
  const p = await openPage(browser, side, { ...load, timeoutMs: 20_000 });
  try {
    await p.page.goto(url, { waitUntil: 'commit' });
    return await p.page.evaluate(() => window.__abBench.loading);
  } finally {
    await p.close();
  }
}

/** Types `text` into the focused terminal (each key a real key event through CDP). */
async function typeText(page, text) {
  for (const ch of text) await page.keyboard.type(ch);
}

/** Empties the shell's command line (Ctrl-U) and waits for the bare prompt on screen. */
export async function clearLine(side) {
  const page = side.p.page;
  await page.evaluate(({ prompt }) => window.__abBench.arm('lineEquals', prompt, true, 10_000), { prompt: PROMPT.trimEnd() });
  await page.keyboard.press('Control+u');
  await page.evaluate(() => window.__abBench.result());
}

/** One key; the ms from its keydown in the page to its echo painted (the command line now reads line). */
async function oneKey(side, key, line) {
  const page = side.p.page;
  await page.evaluate(({ l }) => window.__abBench.arm('lineEquals', l, true, 10_000), { l: line });
  await page.keyboard.type(key);
  const r = await page.evaluate(() => window.__abBench.result());
  if (r.keyAt === null) throw new Error(`${side.label}: no keydown seen for ${JSON.stringify(key)}`);
  side.method = r.method;
  return r.seenAt - r.keyAt;
}

// Letters typed at the prompt: bash echoes each; the line is cleared every LINE_KEYS keys (unmeasured).
const KEYS = 'abcdefghijklmnopqrstuvwxyz';
const LINE_KEYS = 40;

/**
 * Keystroke to echo painted, the sides key by key in turn (the order rotating), so whatever else the
 * machine does in a stretch falls on each alike (as bench/echo.mjs does).
 */
export async function echoRounds(sides, rounds, warmup, log) {
  const samples = sides.map(() => []);
  const typed = sides.map(() => '');
  for (const s of sides) {
    await s.p.page.focus(s.focusSelector);
    await clearLine(s);
  }
  for (let i = 0; i < warmup + rounds; i++) {
    for (let j = 0; j < sides.length; j++) {
      const k = (i + j) % sides.length;
      if (typed[k].length >= LINE_KEYS) {
        await clearLine(sides[k]);
        typed[k] = '';
      }
      const key = KEYS[(i + typed[k].length) % KEYS.length];
      typed[k] += key;
      const ms = await oneKey(sides[k], key, PROMPT + typed[k]);
      if (i >= warmup) samples[k].push(ms);
    }
  }
  for (let k = 0; k < sides.length; k++) {
    await clearLine(sides[k]);
    log(`echo ${sides[k].label}: p50 ${percentile(samples[k], 50).toFixed(1)} ms, p99 ${percentile(samples[k], 99).toFixed(1)} ms (${sides[k].method})`);
  }
  return samples;
}

/**
 * `cat <file>` typed and Enter: the ms from Enter's keydown to the file's last line (marker) painted.
 * Each run a file of its own: the last run's marker is still on screen.
 */
export async function catOnce(side, file, marker, timeoutMs) {
  const page = side.p.page;
  await page.focus(side.focusSelector);
  await clearLine(side);
  await typeText(page, `cat ${file}`);
  await sleep(100); // the command line's echo is in
  await page.evaluate(({ m, t }) => window.__abBench.arm('contains', m, true, t), { m: marker, t: timeoutMs });
  await page.keyboard.press('Enter');
  const r = await page.evaluate(() => window.__abBench.result());
  if (r.keyAt === null) throw new Error(`${side.label}: ${marker} was on screen before Enter`);
  // The prompt back after the file: the next run starts from a quiet shell.
  await page.evaluate(({ p }) => window.__abBench.arm('lineEquals', p, true, 30_000), { p: PROMPT.trimEnd() });
  await page.evaluate(() => window.__abBench.result()).catch(() => {});
  return r.seenAt - r.keyAt;
}
