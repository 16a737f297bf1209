// Part 4 of the web benchmark (bench/web.mjs): the list with 100 sessions. The page's first rows with
// all of them, then a session's program prints a line (SIGUSR1 to a shell loop, as bench/board.mjs
// does) and we time until its row shows the line: end to end (the signal sent, in node's clock, to
// the row in the DOM, in the page's: both `performance.timeOrigin + now()`, the same system clock),
// and the page's share: from the WebSocket message that carried the change (the last one before the
// row changed) to the row in the DOM, which is what "within one frame" asks of the page.
import { percentile, sleep } from './lib.mjs';
import { sigScript } from './board-home.mjs';
import { openPage } from './web-browser.mjs';
import { OURS } from './web-ours.mjs';

/** Sessions whose program prints a numbered line on SIGUSR1; the others sleep. */
const SIG_SESSIONS = 10;
const ROW_SAMPLES = Number(process.env.BENCH_WEB_ROW_SAMPLES ?? 50);
/** Between samples: the page's follow-up renders are done by then. */
const SAMPLE_GAP_MS = 200;
/** The board feed's own throttle is one frame (16 ms): the page should add no more than another. */
export const FRAME_MS = 16.7;

const nowEpoch = () => performance.timeOrigin + performance.now();

export async function listUpdates({ browser, home, ours, total, log, loadRuns }) {
  const have = (await home.list()).length;
  const specs = [
    ...Array.from({ length: SIG_SESSIONS }, (_, i) => ({ name: `sig-${i}`, command: ['sh', '-c', sigScript(`s${i}`)] })),
    ...Array.from({ length: Math.max(0, total - have - SIG_SESSIONS) }, (_, i) => ({ name: `idle-${String(i).padStart(2, '0')}`, command: ['sleep', '1000'] })),
  ];
  const t0 = nowEpoch();
  await home.create(specs);
  const list = await home.list();
  const sigs = list.filter((s) => s.name.startsWith('sig-'));
  log(`list: ${list.length} sessions started in ${((nowEpoch() - t0) / 1000).toFixed(1)} s`);
  await sleep(2000); // the runners' start-up work settles a little

  const rowsLoad = { kind: 'rowCount', arg: { selector: OURS.rowSelector, n: list.length }, terminal: false };
  const side = ours.base;
  const [firstRows] = await loadRuns([{ label: `agent-board web to first rows (${list.length} sessions)`, side, url: ours.url, load: rowsLoad }]);

  const p = await openPage(browser, side, { ...rowsLoad, timeoutMs: 20_000 });
  try {
    await p.page.goto(ours.url);
    await p.page.evaluate(() => window.__abBench.loading);
    const pageOrigin = await p.page.evaluate(() => performance.timeOrigin);
    const counter = new Map(sigs.map((s) => [s.id, 0]));
    const e2e = [];
    const pageShare = [];
    for (let i = 0; i < ROW_SAMPLES; i++) {
      const s = sigs[i % sigs.length];
      const n = counter.get(s.id) + 1;
      counter.set(s.id, n);
      const text = `MARK-s${s.name.slice(4)}-${n}`;
      await p.page.evaluate(({ sel, t }) => window.__abBench.arm('pageText', { selector: sel, text: t }, false, 10_000), { sel: OURS.listSelector, t: text });
      const sent = nowEpoch();
      process.kill(s.childPid, 'SIGUSR1');
      const r = await p.page.evaluate(() => window.__abBench.result());
      const msgAt = await p.page.evaluate((seen) => window.__abBench.msgAt.filter((t) => t <= seen).pop() ?? null, r.seenAt);
      e2e.push(pageOrigin + r.seenAt - sent);
      if (msgAt !== null) pageShare.push(r.seenAt - msgAt);
      await sleep(SAMPLE_GAP_MS);
    }
    const st = (xs) => ({ n: xs.length, p50: percentile(xs, 50), p99: percentile(xs, 99), max: Math.max(...xs) });
    const out = { sessions: list.length, firstRows: firstRows.length ? st(firstRows) : null, e2e: st(e2e), pageShare: pageShare.length ? st(pageShare) : null };
    log(`list: a row's new line, signal to row: p50 ${out.e2e.p50.toFixed(1)} ms, p99 ${out.e2e.p99.toFixed(1)} ms; WebSocket message to row: p50 ${out.pageShare?.p50.toFixed(2)} ms, p99 ${out.pageShare?.p99.toFixed(2)} ms`);
    return out;
  } finally {
    await p.close();
  }
}
