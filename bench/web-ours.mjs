// Our side of the web benchmark (bench/web.mjs): `agent-board web` in a home of its own, a paired
// browser context, and the page's selectors. Everything the bench assumes about our server and
// page is in OURS below, so it can follow the page as it changes.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN, NODE, ROOT } from './lib.mjs';
import { freePort, waitListening } from './web-wetty.mjs';

export const OURS = {
  /** The CLI: node and the script (`agent-board`), run with the bench's home in its environment. */
  cli: [NODE, BIN],
  /** The server's bundle: missing means `agent-board web` is not built (the bench says NOT BUILT). */
  serverBundle: path.join(ROOT, 'dist', 'bundle', 'web-server.cjs'),
  /** The page's script, measured gzipped. */
  pageBundle: path.join(ROOT, 'dist', 'bundle', 'web', 'app.js'),
  startArgs: (port) => ['web', '--port', String(port)],
  stopArgs: ['web', '--stop'],
  pairArgs: ['web', 'pair'],
  /** Where the one-time code is in `agent-board web pair`'s output: the link (`open: <url>/#pair=<code>`) first, then the `code: XXXX-XXXX` line. */
  pairCodePatterns: [/#pair=([A-Za-z0-9_-]+)/, /\bcode\b[^A-Za-z0-9]*([A-Za-z0-9-]{4,})/i],
  pairPath: '/api/pair',
  deviceName: 'bench',
  /** The page of one session's terminal. */
  sessionUrl: (base, id) => `${base}#s=${encodeURIComponent(id)}`,
  /** One row of the sessions list (src/web/page/components/SessionRow.tsx: `<li class="row ..." data-id=...>`). */
  rowSelector: 'li.row[data-id]',
  /** The element holding the list (its text is where a row's last line is looked for). */
  listSelector: 'body',
  /** A window property the page may set to its xterm.js Terminal (as wetty's `wetty_term`); else the DOM rows are read. */
  termHandle: '__agentBoardTerm',
  /** xterm's DOM renderer's rows (xterm's own class). */
  termRowsSelector: '.xterm-rows',
  /** What gets the keys: xterm's hidden textarea. */
  focusSelector: '.xterm-helper-textarea',
  /** A control to press before typing (typing is locked by default on a phone), or null. */
  unlockSelector: null,
};

export function oursBuilt() {
  return fs.existsSync(OURS.serverBundle) && fs.existsSync(OURS.pageBundle);
}

function cli(env, args, timeout = 30_000) {
  return new Promise((resolve, reject) => {
    execFile(OURS.cli[0], [...OURS.cli.slice(1), ...args], { env, encoding: 'utf8', timeout }, (err, stdout, stderr) => {
      if (err) reject(new Error(`agent-board ${args.join(' ')} failed: ${(stderr || err.message).trim()}`));
      else resolve(stdout);
    });
  });
}

/** Starts `agent-board web` in the home of `env` (AGENT_BOARD_HOME) on a free port; resolves with { url, stop() }. */
export async function startOurs(env, cleanup) {
  const port = await freePort();
  const stop = async () => {
    await cli(env, OURS.stopArgs, 15_000).catch((err) => process.stderr.write(`bench cleanup: ${err.message}\n`));
  };
  cleanup.add('agent-board web --stop', stop);
  await cli(env, OURS.startArgs(port));
  await waitListening(port, 10_000);
  return { url: `http://127.0.0.1:${port}/`, stop };
}

/** Pairs a browser: `agent-board web pair`, then POST the code; resolves with the context's storage state (the cookie). */
export async function pairBrowser(env, browser, url) {
  const out = await cli(env, OURS.pairArgs);
  const code = OURS.pairCodePatterns.map((re) => re.exec(out)?.[1]).find(Boolean);
  if (!code) throw new Error(`no pairing code in the output of agent-board ${OURS.pairArgs.join(' ')}: ${out.slice(0, 300)}`);
  const context = await browser.newContext();
  try {
    const res = await context.request.post(new URL(OURS.pairPath, url).href, { data: { code: decodeURIComponent(code), name: OURS.deviceName } });
    if (!res.ok()) throw new Error(`POST ${OURS.pairPath} answered ${res.status()}: ${(await res.text()).slice(0, 200)}`);
    const state = await context.storageState();
    if (!state.cookies.length) throw new Error(`POST ${OURS.pairPath} set no cookie`);
    return state;
  } finally {
    await context.close();
  }
}
