// (c) Attach to the first complete frame at 200x50 with 5,000+ lines of
// scrollback in the session: from spawning the attach client in its PTY until
// every line the screen shows has arrived on the client's output.
import path from 'node:path';
import { BIN, NODE, ROOT, baseEnv, median, now, sleep, timeRuns, waitUntil } from './lib.mjs';

const FILL_LINES = 6000;
const ROUNDS = 10;
const FILL = [NODE, path.join(ROOT, 'bench', 'fill.mjs'), String(FILL_LINES)];
const END = 'FINISHED-OK';
const TOKEN = /R(?:\dx)*\dR/g;

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
  const abSpawn = () => ab.attach(id);
  const tmSpawn = () => tmux.attach('frame');
  // One warm-up each (page cache, first connection), then alternate.
  await attachOnce(abSpawn, abExpected, '\x1c');
  await attachOnce(tmSpawn, tmExpected, '\x02d');
  for (let i = 0; i < ROUNDS; i++) {
    abRuns.push(await attachOnce(abSpawn, abExpected, '\x1c'));
    await sleep(50);
    tmRuns.push(await attachOnce(tmSpawn, tmExpected, '\x02d'));
    await sleep(50);
  }

  // What node itself costs before any of our code runs, and what loading the CLI costs.
  const nodeStart = median(timeRuns(NODE, ['-e', '0'], 10));
  const cliStart = median(timeRuns(NODE, [BIN, '--version'], 10, baseEnv()));
  const abMs = median(abRuns.map((r) => r.ms));
  const tmMs = median(tmRuns.map((r) => r.ms));
  const abFirst = median(abRuns.map((r) => r.firstByteMs));
  const tmFirst = median(tmRuns.map((r) => r.firstByteMs));
  log(`(c) node -e 0: ${nodeStart.toFixed(1)} ms; agent-board --version: ${cliStart.toFixed(1)} ms`);
  return [
    {
      key: 'attach_frame',
      name: 'attach to first full frame 200x50 (ms)',
      unit: 'ms',
      agentBoard: abMs,
      tmux: tmMs,
      ratio: abMs / tmMs,
      target: 'agent-board < 50 ms',
      pass: abMs < 50,
      extra: {
        agentBoardRuns: abRuns,
        tmuxRuns: tmRuns,
        agentBoardFirstByteMs: abFirst,
        tmuxFirstByteMs: tmFirst,
        nodeStartupMs: nodeStart,
        cliVersionMs: cliStart,
        agentBoardMinusNodeMs: abMs - nodeStart,
        scrollback: { agentBoard: abHistory, tmux: tmHistory },
      },
      note: `first byte ${abFirst.toFixed(1)} vs ${tmFirst.toFixed(1)} ms; node -e 0 ${nodeStart.toFixed(1)} ms, agent-board --version ${cliStart.toFixed(1)} ms, so ours beyond node startup ${(abMs - nodeStart).toFixed(1)} ms`,
    },
  ];
}
