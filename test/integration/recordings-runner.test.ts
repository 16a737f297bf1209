/**
 * The recordings played through real runners. Every recording in
 * test/fixtures/recordings is played by a stand-in program
 * (test/fixtures/programs/play-recording.mjs) in a real session, started four
 * ways (test/helpers/playback.ts): with --agent, by the program's name alone,
 * typed into a shell session, and as a forced shell (bytes only). The
 * operator's keys and resizes go in through a client at their recorded
 * times, and a subscribe_status connection keeps the session's activity
 * timeline. At every labelled moment (test/helpers/moments.ts) the runner
 * must show what the table says (test/helpers/moment-judge.ts for the
 * allowance after a transition); a summary table of right moments and flip
 * latencies per kind and way is printed at the end.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destroyHome, makeHome } from '../helpers/home.js';
import { ALLOW_MS, bytesSpans, flips, judgeMoments, replaySpans, type Span } from '../helpers/moment-judge.js';
import { MOMENTS } from '../helpers/moments.js';
import { kindOf, linkPrograms, playThrough, pool, WAYS, type Playback, type Way } from '../helpers/playback.js';
import { summaryTable, type RunResult } from '../helpers/playback-summary.js';
import { readRecording, recordingFiles } from '../helpers/recordings.js';
import { replay } from '../helpers/replay.js';

/** Sessions played at once: each is a runner and a stand-in (and a shell), mostly asleep. */
const CONCURRENCY = Number(process.env.RECORDINGS_RUNNER_CONCURRENCY) || 12;

/** A transition later than this fails (the summary has the real numbers: about 250 ms at most on two idle cores). */
const FLIP_MAX_MS = 2 * ALLOW_MS;

/** RECORDINGS_ONLY=<regular expression>: play only the recordings it matches (while working on some; CI plays all). */
const ONLY = process.env.RECORDINGS_ONLY ? new RegExp(process.env.RECORDINGS_ONLY) : null;
const FILES = recordingFiles().filter((f) => !ONLY || ONLY.test(f));
const results = new Map<string, RunResult & { playback?: Playback }>();
const key = (way: Way, file: string) => `${way}:${file}`;
let home = '';

beforeAll(async () => {
  home = makeHome('ab-playback-');
  const links = linkPrograms(path.join(home, 'bin'));
  const refs = new Map<string, { replay: Span[]; bytes: Span[] }>();
  for (const f of FILES) refs.set(f, { replay: replaySpans(await replay(f)), bytes: bytesSpans(readRecording(f).events) });
  const length = (f: string) => readRecording(f).events.at(-1)!.t;
  const jobs = WAYS.flatMap((way) => FILES.map((file) => ({ way, file })))
    .sort((a, b) => length(b.file) - length(a.file))
    .map(({ way, file }) => async () => {
      const kind = kindOf(file);
      try {
        const p = await playThrough(home, file, way, links);
        const ref = way === 'bytes' ? refs.get(file)!.bytes : refs.get(file)!.replay;
        const named = p.timeline.kinds.find((k) => k.foregroundAgent === kind);
        const followMs = way === 'shell' ? (named ? Math.max(0, named.at - p.start) : null) : undefined;
        results.set(key(way, file), { file, kind, way, verdicts: judgeMoments(p, MOMENTS, ref), flips: flips(p, ref), followMs, backMs: p.backToShellMs, playback: p });
      } catch (e) {
        results.set(key(way, file), { file, kind, way, verdicts: [], flips: [], error: (e as Error).message });
      }
    });
  await pool(CONCURRENCY, jobs);
}, 400_000);

afterAll(() => {
  if (results.size) console.log(`\n${summaryTable([...results.values()])}\n`);
  if (home) destroyHome(home);
});

function get(way: Way, file: string): RunResult & { playback?: Playback } {
  const r = results.get(key(way, file));
  if (!r) throw new Error(`no playback of ${file} (${way})`);
  if (r.error) throw new Error(r.error);
  return r;
}

/** The sources each way may speak from: a forced shell has bytes only. */
const SOURCES: Record<string, string[]> = { claude: ['hook', 'title', 'screen'], codex: ['hook', 'title', 'screen'], gemini: ['hook', 'title', 'screen'], pi: ['screen', 'bytes'] };

describe.each(WAYS)('played through a runner, %s', (way) => {
  describe.each(FILES)('%s', (file) => {
    it('plays to the end with the kind its way gives', () => {
      const { playback: p } = get(way, file);
      const kind = kindOf(file);
      expect(p!.problems).toEqual([]);
      const during = p!.timeline.kinds.filter((k) => k.at <= p!.played.at(-1)!.w).at(-1);
      if (way === 'agent' || way === 'name') expect(during?.agent).toBe(kind);
      if (way === 'shell') expect([during?.agent, during?.foregroundAgent]).toEqual(['shell', kind]);
      if (way === 'bytes') expect([during?.agent, during?.foregroundAgent ?? null]).toEqual(['shell', null]);
      // While it plays (a shell's own bytes come before and after).
      const end = p!.played.at(-1)!.w;
      const sources = new Set(p!.timeline.changes.filter((c) => c.at > p!.start + ALLOW_MS && c.at <= end).map((c) => c.source));
      const allowed = way === 'bytes' ? ['bytes'] : SOURCES[kind]!;
      expect([...sources].filter((s) => !allowed.includes(s ?? ''))).toEqual([]);
    });

    if (way === 'shell') {
      it('is a shell again once the program is gone', () => {
        expect(get(way, file).playback!.backToShellMs).not.toBeNull();
      });
    }

    it(`makes every transition of its reference within ${FLIP_MAX_MS} ms`, () => {
      const late = get(way, file).flips.filter((f) => f.latency === null || f.latency > FLIP_MAX_MS);
      expect(late.map((f) => `${f.activity} at ${f.t} ms: ${f.latency === null ? 'never' : `${Math.round(f.latency)} ms`}`)).toEqual([]);
    });

    it.each(MOMENTS.filter((m) => m.file === file).map((m) => [m.at, m.name] as const))('at %i ms: %s', (at) => {
      const v = get(way, file).verdicts.find((x) => x.moment.at === at)!;
      if (!v.ok) expect(v.seen, `the runner showed ${v.seen} where ${v.want} is right; it said (recording ms): ${v.around}`).toBe(v.want);
    });
  });
});
