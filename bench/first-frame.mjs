// (c) Attach to the first complete frame at 200x50 with 5,000+ lines of
// scrollback in the session: from spawning the attach client in its PTY until
// every line the screen shows has arrived on the client's output. Three
// sides in the same rounds: `agent-board attach`, `tmux attach`, and a bare
// node spawned the same way that prints a word and exits (node's own start,
// which no attach of ours can beat: what is ours is the difference). Then the
// same attach from the board, which is already running: from the Enter typed
// on the board until the frame is complete.
import path from 'node:path';
import { BIN, NODE, PtyClient, ROOT, baseEnv, median, now, sleep, timeRuns, waitUntil } from './lib.mjs';

const FILL_LINES = 6000;
const ROUNDS = 10;
const FILL = [NODE, path.join(ROOT, 'bench', 'fill.mjs'), String(FILL_LINES)];
const END = 'FINISHED-OK';
const TOKEN = /R(?:\dx)*\dR/g;
/** The targets: ours beyond a bare node's start, and an attach from the running board. */
const CLI_BEYOND_NODE_MS = 15;
const BOARD_TARGET_MS = 15;
/** What the bare node prints: one word, so its first byte is its last. */
const NODE_WORD = 'NODE-UP';

/** What the screen shows: its line tokens plus the end marker; all must arrive. */
function expectedFrom(screenText) {
  const tokens = screenText.match(TOKEN) ?? [];
  if (!screenText.includes(END)) throw new Error(`the screen does not show ${END}:\n${screenText}`);
  return [...tokens, END];
}

/** One attach: resolves with { ms, firstByteMs } and detaches again. */
async function attachOnce(spawnClient, expected, detachKeys) {
  const t0 = now();
  const client = spawnClient();
  let seen = '';
  let missing = expected;
  try {
    const t1 = await client.watch(
      (buf) => {
        seen += buf.toString('latin1');
        missing = missing.filter((s) => !seen.includes(s));
        return missing.length === 0;
      },
      10_000,
      'the complete first frame',
    );
    return { ms: t1 - t0, firstByteMs: client.firstOutputAt - t0 };
  } catch (err) {
    throw new Error(`${err.message}; still missing ${missing.length}/${expected.length}: ${missing.slice(0, 5).join(' ')}`);
  } finally {
    client.write(detachKeys);
    await client.waitExit(3000);
  }
}

/** A bare node in a PTY like the attach clients': spawn until its word is on the output. */
async function nodeOnce(env) {
  const t0 = now();
  const c = new PtyClient(NODE, ['-e', `process.stdout.write(${JSON.stringify(NODE_WORD)})`], { env });
  try {
    return (await c.waitForText(NODE_WORD, 10_000)) - t0;
  } finally {
    await c.waitExit(3000);
  }
}

/** The board at 200x50 on the one session, ready for an Enter. */
async function openBoard(ab, name) {
  const board = new PtyClient(NODE, [BIN], { env: { ...ab.env, AGENT_BOARD_NO_DEMO: '1' } });
  await board.waitForText(`── ${name} (`, 15_000); // the preview's title: name (state) size
  await board.settle(300, 3000);
  return board;
}

/** Enter on the board until the attach's frame is complete; then the detach, and the board back. */
async function boardAttachOnce(board, expected) {
  let seen = '';
  let missing = expected;
  const done = board.watch(
    (buf) => {
      seen += buf.toString('latin1');
      missing = missing.filter((x) => !seen.includes(x));
      return missing.length === 0;
    },
    10_000,
    'the complete first frame from the board',
  );
  const t0 = now();
  board.write('\r');
  try {
    return (await done) - t0;
  } catch (err) {
    throw new Error(`${err.message}; still missing ${missing.length}/${expected.length}: ${missing.slice(0, 5).join(' ')}`);
  } finally {
    board.write('\x1c');
    await board.settle(300, 3000);
  }
}

export async function benchFirstFrame({ ab, tmux, log }) {
  const id = await ab.newSession('bench-frame', FILL);
  // tmux trims history in 10 % steps once it reaches the limit (5000 would
  // leave 4500-5000 lines); a higher limit keeps all 5,950 or so.
  tmux.newSession('frame', FILL, { history: 10_000 });

  // Wait for both fills to finish and check the history really is there.
  const abScreen = await waitUntil('the agent-board fill', () => {
    const s = ab.peek(id);
    return s.includes(END) ? s : null;
  }, 20_000, 100);
  const tmScreen = await waitUntil('the tmux fill', () => {
    const s = tmux.capture('frame');
    return s.includes(END) ? s : null;
  }, 20_000, 100);
  const abExpected = expectedFrom(abScreen);
  const tmExpected = expectedFrom(tmScreen);
  // History lines = token lines peek --scrollback shows, minus those on the screen.
  const hasToken = /R(?:\dx)*\dR/;
  const abHistory = ab.peek(id, 100_000).split('\n').filter((l) => hasToken.test(l)).length - (abExpected.length - 1);
  const tmHistory = Number(tmux.run(['display-message', '-p', '-t', 'frame', '#{history_size}']).trim());
  log(`(c) scrollback: agent-board ${abHistory} lines, tmux ${tmHistory} lines; screen shows ${abExpected.length - 1} / ${tmExpected.length - 1} line tokens + the end marker`);
  if (abHistory < 5000 || tmHistory < 5000) throw new Error(`scrollback too short: agent-board ${abHistory}, tmux ${tmHistory}`);

  const abRuns = [];
  const tmRuns = [];
  const nodeRuns = [];
  const abSpawn = () => ab.attach(id);
  const tmSpawn = () => tmux.attach('frame');
  // One warm-up each (page cache, first connection), then alternate.
  await attachOnce(abSpawn, abExpected, '\x1c');
  await attachOnce(tmSpawn, tmExpected, '\x02d');
  await nodeOnce(ab.env);
  for (let i = 0; i < ROUNDS; i++) {
    abRuns.push(await attachOnce(abSpawn, abExpected, '\x1c'));
    await sleep(50);
    tmRuns.push(await attachOnce(tmSpawn, tmExpected, '\x02d'));
    await sleep(50);
    nodeRuns.push(await nodeOnce(ab.env));
    await sleep(50);
  }

  // From the board: one warm-up (the first attach loads the attach code), then the rounds.
  const board = await openBoard(ab, 'bench-frame');
  const boardRuns = [];
  try {
    await boardAttachOnce(board, abExpected);
    for (let i = 0; i < ROUNDS; i++) boardRuns.push(await boardAttachOnce(board, abExpected));
  } finally {
    board.write('q');
    if (!(await board.waitExit(3000))) log('(c) the board did not quit on q; killed');
  }

  // What node itself costs before any of our code runs (spawnSync, no PTY), and what loading the CLI costs.
  const nodeStart = median(timeRuns(NODE, ['-e', '0'], 10));
  const cliStart = median(timeRuns(NODE, [BIN, '--version'], 10, baseEnv()));
  const abMs = median(abRuns.map((r) => r.ms));
  const tmMs = median(tmRuns.map((r) => r.ms));
  const nodeMs = median(nodeRuns);
  const boardMs = median(boardRuns);
  const abFirst = median(abRuns.map((r) => r.firstByteMs));
  const tmFirst = median(tmRuns.map((r) => r.firstByteMs));
  // Ours beyond node: the median of each round's difference, so a busy spell weighs on both sides of it.
  const beyond = median(abRuns.map((r, i) => r.ms - nodeRuns[i]));
  log(`(c) node -e 0: ${nodeStart.toFixed(1)} ms; agent-board --version: ${cliStart.toFixed(1)} ms`);
  log(
    `(c) CLI attach ${abMs.toFixed(1)} ms, tmux ${tmMs.toFixed(1)} ms, bare node in a PTY ${nodeMs.toFixed(1)} ms: ` +
      `ratio to node ${(abMs / nodeMs).toFixed(2)}, beyond node ${beyond.toFixed(1)} ms (target ${CLI_BEYOND_NODE_MS}); ` +
      `from the board ${boardMs.toFixed(1)} ms (min ${Math.min(...boardRuns).toFixed(1)}, max ${Math.max(...boardRuns).toFixed(1)})`,
  );
  return [
    {
      key: 'attach_frame',
      name: 'attach to first full frame 200x50 (ms)',
      unit: 'ms',
      agentBoard: abMs,
      tmux: tmMs,
      ratio: abMs / tmMs,
      target: `within ${CLI_BEYOND_NODE_MS} ms of a bare node`,
      pass: beyond <= CLI_BEYOND_NODE_MS,
      extra: {
        agentBoardRuns: abRuns,
        tmuxRuns: tmRuns,
        nodeInPtyRuns: nodeRuns,
        nodeInPtyMs: nodeMs,
        ratioToNode: abMs / nodeMs,
        agentBoardFirstByteMs: abFirst,
        tmuxFirstByteMs: tmFirst,
        nodeStartupMs: nodeStart,
        cliVersionMs: cliStart,
        agentBoardMinusNodeMs: beyond,
        scrollback: { agentBoard: abHistory, tmux: tmHistory },
      },
      note: `first byte ${abFirst.toFixed(1)} vs ${tmFirst.toFixed(1)} ms; a bare node in a PTY ${nodeMs.toFixed(1)} ms (ratio ${(abMs / nodeMs).toFixed(2)}, ours beyond it ${beyond.toFixed(1)} ms); node -e 0 ${nodeStart.toFixed(1)} ms, agent-board --version ${cliStart.toFixed(1)} ms`,
    },
    {
      key: 'attach_frame_board',
      name: 'attach from the board to first full frame 200x50 (ms)',
      unit: 'ms',
      agentBoard: boardMs,
      tmux: tmMs,
      ratio: boardMs / tmMs,
      target: `agent-board < ${BOARD_TARGET_MS} ms`,
      pass: boardMs < BOARD_TARGET_MS,
      extra: { boardRuns },
      note: `from the Enter on the running board; tmux is its attach from a shell (it has no board)`,
    },
  ];
}
