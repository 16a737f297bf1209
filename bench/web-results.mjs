// The web benchmark's measurements (bench/web.mjs) as result records of the suite (bench/run.mjs):
// `agentBoard` ours, `tmux` the reference named by `versus` (wetty, or the target itself). A side
// that did not run (ours not built, wetty not installable) leaves its value null, the ratio NaN and
// `pass` null, and the note says why.
import { FRAME_MS } from './web-list.mjs';

const FIRST_ROWS_TARGET_MS = 300;

const ratioOf = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : NaN);
const passOf = (a, b, ok) => (Number.isFinite(a) && Number.isFinite(b) ? ok(a, b) : null);
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');

export function webResults(m, cfg) {
  const side = (label) => m.sides?.find((s) => s.label === label) ?? null;
  const ours = side('agent-board web');
  const wgl = side('wetty (WebGL)');
  const wdom = side('wetty (DOM renderer)');
  const load = (label) => m.loads?.find((l) => l.label === label)?.ms ?? null;
  const why = [m.oursWhy ? `agent-board web: ${m.oursWhy}` : null, m.wettyWhy ? `wetty: NOT RUN (${m.wettyWhy})` : null].filter(Boolean).join('; ');
  const how = (s) => (s ? `${s.label}: ${s.method ?? '?'}${s.info?.cols ? `, ${s.info.cols}x${s.info.rows}` : ''}` : null);
  const methods = [ours, wgl, wdom].map(how).filter(Boolean).join('; ');
  const noteOf = (...parts) => [why, ...parts].filter(Boolean).join('; ');
  const rec = (key, name, unit, a, w, versus, target, ok, note, extra) => ({
    key,
    name,
    unit,
    agentBoard: a ?? null,
    tmux: w ?? null,
    versus,
    ratio: ratioOf(a, w),
    target,
    pass: ok ? passOf(a, w, ok) : null,
    note: noteOf(note),
    extra,
  });
  const le = (a, b) => a <= b;
  const out = [
    rec('web_echo_p50', 'web: keystroke to echo painted p50 (ms)', 'ms', ours?.echo?.p50, wgl?.echo?.p50, 'wetty WebGL', 'ratio <= 1.0', le, `${cfg.echoRounds} keys each, the sides key by key in turn; ${methods}`, { ours: ours?.echo, wetty: wgl?.echo, wettyDom: wdom?.echo }),
    rec('web_echo_p50_dom', 'web: keystroke to echo painted p50, wetty on the DOM renderer (ms)', 'ms', ours?.echo?.p50, wdom?.echo?.p50, 'wetty DOM', 'ratio <= 1.0', le, "wetty's DOM renderer is what it uses on a phone, and what our page uses"),
    rec('web_echo_p99', 'web: keystroke to echo painted p99 (ms)', 'ms', ours?.echo?.p99, wgl?.echo?.p99, 'wetty WebGL', 'reported (no target)', null, `wetty DOM renderer p99 ${f1(wdom?.echo?.p99)} ms`),
    rec('web_cat', `web: cat ${cfg.catMiB} MiB to its last byte painted (ms)`, 'ms', ours?.cat?.p50, wgl?.cat?.p50, 'wetty WebGL', 'ratio <= 1.0', le, `median of ${cfg.catRuns} each, from Enter's keydown to the file's last line on screen; max ours ${f1(ours?.cat?.max)}, wetty ${f1(wgl?.cat?.max)} ms`, { ours: ours?.cat, wetty: wgl?.cat, catBytes: m.catBytes }),
    rec('web_cat_dom', `web: cat ${cfg.catMiB} MiB, wetty on the DOM renderer (ms)`, 'ms', ours?.cat?.p50, wdom?.cat?.p50, 'wetty DOM', 'ratio <= 1.0', le, null, { wettyDom: wdom?.cat }),
    rec('web_first_prompt', "web: page load to a session's first prompt painted p50 (ms)", 'ms', load('agent-board web to first prompt')?.p50, load('wetty to first prompt')?.p50, 'wetty', 'reported (no target)', null, `${cfg.loadRuns} loads each, a fresh browser context (cold cache) each, from navigation start`),
    rec('web_first_rows', 'web: page load to first rows, 1 session, p50 (ms)', 'ms', load('agent-board web to first rows (1 session)')?.p50, FIRST_ROWS_TARGET_MS, 'target', `< ${FIRST_ROWS_TARGET_MS} ms`, (a, b) => a < b, `max ${f1(load('agent-board web to first rows (1 session)')?.max)} ms`),
    rec('web_first_rows_100', 'web: page load to first rows, 100 sessions, p50 (ms)', 'ms', m.list?.firstRows?.p50, FIRST_ROWS_TARGET_MS, 'target', `< ${FIRST_ROWS_TARGET_MS} ms`, (a, b) => a < b, m.list?.error ?? `max ${f1(m.list?.firstRows?.max)} ms, all ${m.list?.sessions ?? '?'} rows in the DOM`),
    rec('web_list_row_page', "web: 100 sessions, a row's update, WebSocket message to row p99 (ms)", 'ms', m.list?.pageShare?.p99, FRAME_MS, 'one frame', `< ${FRAME_MS} ms`, (a, b) => a < b, m.list?.error ?? `p50 ${f1(m.list?.pageShare?.p50)} ms over ${m.list?.pageShare?.n ?? 0} updates`, m.list),
    rec('web_list_row_e2e', "web: 100 sessions, a session's line to its row p50 (ms)", 'ms', m.list?.e2e?.p50, null, 'no reference', 'reported (no target)', null, m.list?.error ?? `p99 ${f1(m.list?.e2e?.p99)} ms: the program's output, its runner, the board feed, the server, the WebSocket, the page (bench/board.mjs times the terminal board's row)`),
    rec('web_bundle_gzip', 'web: page bundle gzipped (KiB)', 'KiB', m.bundle?.ours ? m.bundle.ours.gz / 1024 : null, m.bundle?.wetty ? m.bundle.wetty.gz / 1024 : null, 'wetty', 'reported (no target)', null, `gzip -9 of ${m.bundle?.ours?.files.join(' + ') ?? 'dist/bundle/web/app.js (missing)'} (raw ${f1((m.bundle?.ours?.raw ?? NaN) / 1024)} KiB); wetty: ${m.bundle?.wetty?.files.join(' + ') ?? '-'} (raw ${f1((m.bundle?.wetty?.raw ?? NaN) / 1024)} KiB)`),
    rec('web_list_bundle_gzip', 'web: what the list loads before its rows, gzipped (KiB)', 'KiB', m.bundle?.oursList ? m.bundle.oursList.gz / 1024 : null, m.bundle?.wetty ? m.bundle.wetty.gz / 1024 : null, 'wetty', 'reported (no target)', null, `gzip -9 of ${m.bundle?.oursList?.files.join(' + ') ?? '-'}: xterm.js comes with the first session opened (src/web/page/components/xterm-lib.ts)`),
  ];
  return out;
}
