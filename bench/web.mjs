// (h) `agent-board web` beside wetty (an existing web terminal on xterm.js, from npm), both driven
// by the same headless chromium in one run:
//   1. keystroke to echo painted in the page, p50 and p99 (bash at a prompt, the sides key by key
//      in turn); wetty twice: as it runs on a desktop (its WebGL renderer, here chromium's software
//      WebGL) and with the DOM renderer (what it uses on a phone, and what our page uses);
//   2. `cat` of a 10 MiB file: from Enter to its last line (a unique marker) painted;
//   3. page load: ours to the first rows of the list (target under 300 ms on loopback), with 1 and
//      with 100 sessions; both to the first prompt painted in a session's terminal;
//   4. 100 sessions on the list: a session prints a line (SIGUSR1 to a shell loop) and we time
//      until its row shows it, end to end and the page's share (the WebSocket message to the row
//      in the DOM: the "within one frame" target);
//   5. the page's bundle, gzipped (wetty's for reference).
// How "painted" is timed: bench/web-probe.mjs. wetty's install and start: bench/web-wetty.mjs.
// Our server, pairing and the page's selectors: bench/web-ours.mjs (OURS). Without our server built
// the bench says "agent-board web: NOT BUILT" and measures wetty alone; wetty that cannot be
// installed or run is reported NOT RUN and ours is measured alone.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { AgentBoard, Cleanup, SHELL, percentile, sleep } from './lib.mjs';
import { BoardHome } from './board-home.mjs';
import { PROMPT, catOnce, echoRounds, launchBrowser, openPage, timeLoad } from './web-browser.mjs';
import { OURS, oursBuilt, pairBrowser, startOurs } from './web-ours.mjs';
import { listUpdates } from './web-list.mjs';
import { WETTY_DIR, WETTY_VERSION, installWetty, startWetty } from './web-wetty.mjs';
import { webResults } from './web-results.mjs';

/** Keys timed per side (BENCH_WEB_ECHO_ROUNDS to change it); each side gets every one in turn. */
const ECHO_ROUNDS = Number(process.env.BENCH_WEB_ECHO_ROUNDS ?? 200);
const ECHO_WARMUP = 10;
const CAT_MIB = 10;
const CAT_RUNS = Number(process.env.BENCH_WEB_CAT_RUNS ?? 3);
const CAT_TIMEOUT_MS = 180_000;
const LOAD_RUNS = 10;
const LIST_SESSIONS = 100;
const CHECK_METHOD = process.env.BENCH_WEB_CHECK_METHOD === '1';

const stat = (xs) => (xs?.length ? { n: xs.length, p50: percentile(xs, 50), p99: percentile(xs, 99), min: Math.min(...xs), max: Math.max(...xs) } : null);

/** A file of CAT_MIB MiB of printable lines ending in a line no other line (nor file) has: the marker. */
function makeCatFile(dir, run) {
  const marker = `AB-WEB-END-${process.pid}-${run}-${Date.now().toString(36)}`;
  const line = 'the quick brown fox jumps over the lazy dog 0123456789 '.repeat(2).slice(0, 99) + '\n';
  const file = path.join(dir, `ten-mib-${run}.txt`);
  const body = line.repeat(Math.ceil((CAT_MIB * 1024 * 1024) / line.length));
  fs.writeFileSync(file, body + marker + '\n');
  return { file, marker, bytes: Buffer.byteLength(body) + marker.length + 1 };
}

function gzipOf(files) {
  const have = files.filter((f) => fs.existsSync(f));
  if (!have.length) return null;
  const raw = have.reduce((n, f) => n + fs.statSync(f).size, 0);
  const gz = have.reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(f), { level: 9 }).length, 0);
  return { raw, gz, files: have.map((f) => path.basename(f)) };
}

async function catRuns(sides, dir, log) {
  const out = sides.map(() => []);
  let bytes = 0;
  for (let i = 0; i < CAT_RUNS; i++) {
    const cat = makeCatFile(dir, i);
    bytes = cat.bytes;
    for (let j = 0; j < sides.length; j++) {
      const k = (i + j) % sides.length;
      const ms = await catOnce(sides[k], cat.file, cat.marker, CAT_TIMEOUT_MS);
      out[k].push(ms);
      log(`cat ${CAT_MIB} MiB ${sides[k].label}: ${ms.toFixed(0)} ms`);
    }
    fs.rmSync(cat.file);
  }
  return { out, bytes };
}

/** Times LOAD_RUNS fresh page loads of each target in turn; resolves with the samples per target. */
async function loadRuns(browser, targets, log) {
  const out = targets.map(() => []);
  for (let i = 0; i < LOAD_RUNS; i++) {
    for (let k = 0; k < targets.length; k++) {
      const t = targets[k];
      try {
        out[k].push(await timeLoad(browser, t.side, t.url, t.load));
      } catch (err) {
        if (!t.error) log(`load ${t.label}: ${err.message}`);
        t.error = err.message;
      }
    }
  }
  targets.forEach((t, k) => out[k].length && log(`load ${t.label}: p50 ${percentile(out[k], 50).toFixed(0)} ms, max ${Math.max(...out[k]).toFixed(0)} ms`));
  return out;
}

export async function benchWeb({ tmp, log }) {
  const scope = new Cleanup();
  const m = { wetty: null, wettyWhy: null, oursWhy: null, notes: [] };
  const exitKill = [];
  const onExit = () => exitKill.forEach((f) => f());
  process.on('exit', onExit);
  try {
    // The whole page (the list's script and style, and the xterm chunk a session's view loads), and
    // what the list alone needs before its first rows.
    const webDir = path.dirname(OURS.pageBundle);
    const chunks = fs.existsSync(webDir) ? fs.readdirSync(webDir).filter((f) => /^chunk-.*\.js$/.test(f)).map((f) => path.join(webDir, f)) : [];
    m.bundle = { ours: gzipOf([OURS.pageBundle, path.join(webDir, 'app.css'), ...chunks]), oursList: gzipOf([OURS.pageBundle, path.join(webDir, 'app.css')]) };
    const wettyClient = path.join(WETTY_DIR, 'node_modules', 'wetty', 'build', 'client');

    let browser;
    try {
      browser = await launchBrowser();
    } catch (err) {
      // No chromium here (or playwright-core cannot start it): nothing in this bench can run.
      m.oursWhy = m.wettyWhy = `chromium did not start: ${String(err?.message ?? err).split('\n')[0]}`;
      log(`!!! web: NOT RUN (${m.oursWhy}) !!!`);
      return webResults(m, { echoRounds: ECHO_ROUNDS, catMiB: CAT_MIB, catRuns: CAT_RUNS, loadRuns: LOAD_RUNS, wettyVersion: WETTY_VERSION });
    }
    scope.add('chromium', () => browser.close());
    log(`chromium ${browser.version()} (headless, --disable-gpu: WebGL is chromium's software one)`);

    // ---- wetty ----
    const why = installWetty(log);
    let wetty = null;
    if (why) m.wettyWhy = why;
    else {
      try {
        wetty = await startWetty(tmp, scope);
        exitKill.push(() => {
          try {
            process.kill(-wetty.pid, 'SIGKILL');
          } catch {
            // gone
          }
        });
        log(`wetty ${WETTY_VERSION}: ${wetty.command} (cwd ${tmp}; PS1='${PROMPT}'), page ${wetty.url}`);
        m.bundle.wetty = gzipOf([path.join(wettyClient, 'wetty.js'), path.join(wettyClient, 'wetty.css')]);
      } catch (err) {
        m.wettyWhy = err.message;
      }
    }
    if (m.wettyWhy) log(`!!! wetty: NOT RUN (${m.wettyWhy}) !!!`);

    const sides = [];
    const loadPrompt = { kind: 'lineEquals', arg: PROMPT.trimEnd(), terminal: true };
    const wettySide = (label, noWebgl) => ({ label, url: wetty.url, handle: 'wetty_term', rowsSelector: '.xterm-rows', focusSelector: '.xterm-helper-textarea', noWebgl });
    if (wetty) {
      const variants = [wettySide('wetty (WebGL)', false), wettySide('wetty (DOM renderer)', true)];
      // The two ways of seeing "painted" side by side on one page kind (BENCH_WEB_CHECK_METHOD=1):
      // wetty on the DOM renderer read from its DOM rows, as ours is when its page exposes no terminal.
      if (CHECK_METHOD) variants.push({ ...wettySide('wetty (DOM renderer, read from the DOM)', true), handle: null });
      for (const s of variants) {
        s.p = await openPage(browser, s, { ...loadPrompt, timeoutMs: 20_000 });
        scope.add(`page ${s.label}`, () => s.p.close());
        await s.p.page.goto(s.url);
        await s.p.page.evaluate(() => window.__abBench.loading);
        s.info = await s.p.page.evaluate(() => window.__abBench.info());
        log(`${s.label}: terminal ${s.info.cols}x${s.info.rows}, ${s.info.canvases} canvases, DOM rows ${s.info.domRows}`);
        sides.push(s);
      }
    }

    // ---- ours ----
    let ours = null;
    let home = null;
    const termSize = { cols: sides[0]?.info.cols ?? 158, rows: sides[0]?.info.rows ?? 50 };
    if (!oursBuilt()) m.oursWhy = `NOT BUILT (${path.relative(process.cwd(), OURS.serverBundle)} or ${path.relative(process.cwd(), OURS.pageBundle)} missing)`;
    else {
      try {
        home = new BoardHome();
        scope.add('the sessions of the web bench', () => home.dispose());
        ours = await startOurs(home.env, scope);
        ours.storageState = await pairBrowser(home.env, browser, ours.url);
        const ab = new AgentBoard(home.dir, scope);
        // The shell wetty runs, at the size wetty's terminal got in this window.
        ours.sessionId = await ab.newSession('web-shell', SHELL, { ...termSize, cwd: tmp });
        // The list's side (the rows need no terminal); the terminal's side below.
        ours.base = { label: 'agent-board web', url: ours.url, handle: OURS.termHandle, rowsSelector: OURS.termRowsSelector, focusSelector: OURS.focusSelector, storageState: ours.storageState };
      } catch (err) {
        m.oursWhy = `FAILED: ${err.message}`;
        ours = null;
      }
    }
    if (ours) {
      try {
        const s = { ...ours.base, url: OURS.sessionUrl(ours.url, ours.sessionId) };
        s.p = await openPage(browser, s, { ...loadPrompt, timeoutMs: 20_000 });
        scope.add(`page ${s.label}`, () => s.p.close());
        await s.p.page.goto(s.url);
        await s.p.page.evaluate(() => window.__abBench.loading);
        if (OURS.unlockSelector) await s.p.page.click(OURS.unlockSelector);
        s.info = await s.p.page.evaluate(() => window.__abBench.info());
        log(`agent-board web: ${ours.url}, session ${ours.sessionId} at ${termSize.cols}x${termSize.rows}; page terminal ${s.info.cols ?? '?'}x${s.info.rows ?? '?'}, handle ${s.info.hasHandle}, DOM rows ${s.info.domRows}`);
        sides.push(s);
        ours.side = s;
      } catch (err) {
        // The list can still be measured.
        m.oursWhy = `its terminal FAILED (${err.message.split('\n')[0]}); the list is measured`;
      }
    }
    if (m.oursWhy) log(`!!! agent-board web: ${m.oursWhy} !!!`);

    // ---- 1. echo, 2. cat ----
    if (sides.length) {
      const echo = await echoRounds(sides, ECHO_ROUNDS, ECHO_WARMUP, log);
      const cats = await catRuns(sides, tmp, log);
      m.sides = sides.map((s, k) => ({ label: s.label, method: s.method, info: s.info, errors: s.p.errors.slice(0, 3), echo: stat(echo[k]), cat: stat(cats.out[k]) }));
      m.catBytes = cats.bytes;
      for (const s of sides) await s.p.close();
    }

    // ---- 3. page loads (1 session) ----
    const targets = [];
    if (wetty) targets.push({ label: 'wetty to first prompt', side: wettySide('wetty', false), url: wetty.url, load: loadPrompt });
    if (ours?.side) targets.push({ label: 'agent-board web to first prompt', side: ours.side, url: ours.side.url, load: loadPrompt });
    if (ours) {
      targets.push({ label: 'agent-board web to first rows (1 session)', side: ours.base, url: ours.url, load: { kind: 'rowCount', arg: { selector: OURS.rowSelector, n: 1 }, terminal: false } });
    }
    if (targets.length) {
      const loads = await loadRuns(browser, targets, log);
      m.loads = targets.map((t, k) => ({ label: t.label, ms: stat(loads[k]), error: t.error ?? null }));
    }

    // ---- 4. 100 sessions: first rows and a row's update ----
    if (ours) {
      try {
        m.list = await listUpdates({ browser, home, ours, total: LIST_SESSIONS, log, loadRuns: (t) => loadRuns(browser, t, log) });
      } catch (err) {
        m.list = { error: err.message };
        log(`100 sessions: FAILED: ${err.message}`);
      }
    }
    await sleep(0);
    return webResults(m, { echoRounds: ECHO_ROUNDS, catMiB: CAT_MIB, catRuns: CAT_RUNS, loadRuns: LOAD_RUNS, wettyVersion: WETTY_VERSION });
  } finally {
    await scope.run();
    process.off('exit', onExit);
  }
}
