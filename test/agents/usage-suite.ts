/**
 * An agent's usage, read back from its own transcript (issue 31, docs/usage.md): the real CLI takes
 * turns against its mock (which reports usage as its vendor does, different numbers for each answer,
 * and logs what it served), is restarted (its conversation resumed into the same transcript), takes
 * another; then findTranscript finds the file from the session's record and the kind's reader gives
 * exactly the tokens the mock served for the conversation's answers, to the token. For Claude and
 * Codex, ccusage (pinned in test/agents/clis.json, installed by .ci/run) reads the same files and
 * its totals are compared with ours. A CLI (or ccusage) that is not installed says NOT RUN loudly.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OVERRULE_AFTER_MS } from '../../src/core/agents/activity-layers.js';
import type { TokenCounts } from '../../src/core/usage/usage-types.js';
import { USAGE_READERS } from '../../src/core/usage/readers/index.js';
import { findTranscript } from '../../src/state/usage/transcript-find.js';
import { addTokens, readUsage, zero, type ReadBack } from '../helpers/usage-read.js';
import { SETUPS, type LaneKind } from './agent-homes.js';
import { findCcusage, notRunBanner, runJson } from './ccusage.js';
import { findCli, Lane, until, type MockEntry, type Reading } from './lane.js';

const DELAY_MS = 30;
const START_MS = 30_000;
const TURN_MS = 30_000;
/** How long the transcript may lag the turn's idle: Claude writes its answer a moment after its Stop hook. */
const WRITE_LAG_MS = 10_000;

export interface UsageLaneOptions {
  /** The prompts, in order; a restart comes before the last. Each has a marker the mock's log is searched for. */
  prompts: string[];
  /** More checks of what was read, against what the mock served. */
  check?: (o: { ours: ReadBack; served: TokenCounts }) => void;
  /** Compare with ccusage (its reading of the same files): which of its bins, and how. */
  ccusage?: { bin: 'ccusage' | 'ccusage-codex'; compare: (o: CcusageRun) => Promise<void> };
}

export interface CcusageRun {
  /** The temporary $HOME the CLI ran in. */
  home: string;
  /** The transcript we read. */
  file: string;
  ours: ReadBack;
  /** ccusage's `--json` output for these arguments, run with this environment (and PATH). */
  run: (args: string[], env: Record<string, string>) => Promise<unknown>;
}

interface Served {
  tokens: TokenCounts;
  /** Answers whose usage the transcript should hold (streamed: the conversation's own). */
  answers: number;
  /** Billed calls no transcript records (the CLI's helpers: titles, a model router), summed apart. */
  helpers: TokenCounts;
  helperCalls: number;
}

/** What the mock's log says it served. */
function servedBy(entries: MockEntry[]): Served {
  const s: Served = { tokens: zero(), answers: 0, helpers: zero(), helperCalls: 0 };
  for (const e of entries as (MockEntry & { usage?: TokenCounts; stream?: boolean })[]) {
    if (!e.usage) continue;
    if (e.ev === 'end' && e.stream !== false) (s.tokens = addTokens(s.tokens, e.usage), s.answers++);
    else (s.helpers = addTokens(s.helpers, e.usage), s.helperCalls++);
  }
  return s;
}

/** Each file in `dir` with its size and first line's start, for a failure message. */
function folderListing(dir: string): string {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (e) {
    return String(e);
  }
  return names
    .map((n) => {
      const f = path.join(dir, n);
      if (!fs.statSync(f).isFile()) return `  ${n}/`;
      const text = fs.readFileSync(f, 'utf8');
      return `  ${n} ${text.length} bytes, ${text.split('\n').length - 1} lines: ${text.slice(0, 160)}`;
    })
    .join('\n');
}

export function usageLane(kind: LaneKind, o: UsageLaneOptions): void {
  const found = findCli(kind);
  const setup = SETUPS[kind];
  const title = `usage lane: ${kind} (the real CLI's transcript read back against what the mock served)`;
  if ('skip' in found) notRunBanner(title, found.skip);

  describe.skipIf('skip' in found)('skip' in found ? `${title}: NOT RUN: ${found.skip}` : title, { timeout: 240_000 }, () => {
    let lane: Lane;
    let id = '';
    let log: Reading[] = [];
    const screen = (name: string) => async () => `--- screen of ${name}:\n${await lane.peek(name)}`;

    beforeAll(async () => {
      lane = new Lane(kind, (found as { binDir: string }).binDir);
      await lane.start(DELAY_MS);
    });
    afterAll(() => lane?.stop());

    const idleNotBytes = (sid: string) => {
      const rec = lane.record(sid);
      return rec?.activity === 'idle' && rec.activitySource !== 'bytes';
    };
    const streamedEnds = () => lane.mock.entries().filter((e) => e.ev === 'end' && (e as { stream?: boolean }).stream !== false);

    /** Sends `prompt` to session `name` and waits for the mock's answer to it to end and the session to be idle after. */
    async function turn(name: string, sid: string, readings: Reading[], prompt: string): Promise<void> {
      // Codex has no hook at a turn's start: a turn within OVERRULE_AFTER_MS of its last idle is not seen (docs/agents.md, the lane).
      const last = readings.at(-1);
      if (last) await new Promise((r) => setTimeout(r, Math.max(0, last.since + OVERRULE_AFTER_MS + 200 - Date.now())));
      const t0 = Date.now();
      const r = await lane.ab(['send', name, prompt]);
      expect(r.stdout, r.stderr).toMatch(/^applied: typed /m);
      const find = (pred: (e: MockEntry) => boolean) => () => lane.mock.entries().find(pred);
      const request = await until(`the mock to get "${prompt}"`, find((e) => e.ev === 'request' && e.t >= t0 && !!e.body?.includes(prompt)), TURN_MS, screen(name));
      const end = await until('the end of its answer', find((e) => e.ev === 'end' && (e as { stream?: boolean }).stream !== false && e.t >= request.t), TURN_MS);
      await until(`${name} idle after the answer`, () => readings.find((x) => x.activity === 'idle' && x.since >= end.t), TURN_MS, screen(name));
      await lane.settled(sid);
    }

    /** Waits for session `sid` to run again after `t` (a restart, a fork), idle, showing the last answer before `t`. */
    async function backIdle(name: string, sid: string, t: number): Promise<void> {
      await until(`${name} idle after ${t}`, () => idleNotBytes(sid) && lane.record(sid)?.status === 'running' && Date.parse(lane.record(sid)!.activitySince!) > t, START_MS, screen(name));
      await lane.screenShows(name, `Mock reply ${streamedEnds().filter((e) => e.t < t).at(-1)!.n} from`, START_MS);
      await lane.settled(sid);
    }

    const transcript = (sid: string) => {
      const rec = JSON.parse(fs.readFileSync(path.join(lane.abHome, 'sessions', sid, 'host.json'), 'utf8')) as { resumeId?: string; cwd: string };
      return rec.resumeId ? findTranscript({ kind, resumeId: rec.resumeId, cwd: rec.cwd, env: lane.env }) : null;
    };
    const readBack = (file: string) => readUsage(USAGE_READERS[kind]!, fs.readFileSync(file, 'utf8'));
    /** The transcript read once it holds `answers` (the last lands a moment after the turn's idle: Claude writes it after its Stop hook). */
    async function readWhole(file: string, answers: number): Promise<ReadBack> {
      await until(`${answers} answers in ${file}`, () => readBack(file).entries.length >= answers || undefined, WRITE_LAG_MS).catch(() => undefined);
      return readBack(file);
    }
    /** `f` is still there and holds what it held: `was`. */
    const expectWhole = (who: string, f: string, was: ReadBack) => {
      expect(fs.existsSync(f), `${who}'s transcript ${f} is gone; its folder holds:\n${folderListing(path.dirname(f))}`).toBe(true);
      expect(readBack(f).tokens, `${who}'s transcript`).toEqual(was.tokens);
    };
    const say = (what: string, file: string, r: ReadBack, s: Served) =>
      console.log(
        `[usage lane] ${kind} ${what}: ${path.relative(lane.home, file)}: read ${JSON.stringify(r.tokens)} in ${r.entries.length} messages` +
          ` (${r.skipped} lines skipped${r.costUsd ? `, the CLI's own cost $${r.costUsd.toFixed(6)}` : ''}); the mock served ${JSON.stringify(s.tokens)}` +
          ` in ${s.answers} answers, and ${JSON.stringify(s.helpers)} in ${s.helperCalls} helper calls no transcript records`,
      );
    let ours: ReadBack;
    let file = '';
    let fork: { id: string; file: string; read: ReadBack } | undefined;
    let third: { id: string; log: Reading[] } | undefined;

    it('turns before and after a restart: its transcript gives exactly the tokens the mock served', async () => {
      id = (await lane.newSession(['--agent', kind, '--name', 'u', '--', ...setup.words])).id;
      log = lane.watch(id);
      await until('u idle after start', () => idleNotBytes(id), START_MS, screen('u'));
      await lane.settled(id);
      for (const p of o.prompts.slice(0, -1)) await turn('u', id, log, p);
      const t = Date.now();
      const r = await lane.ab(['restart', 'u']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/resumed/);
      await backIdle('u', id, t);
      await turn('u', id, log, o.prompts.at(-1)!);

      const served = servedBy(lane.mock.entries());
      file = await until('its transcript', () => transcript(id), 5000);
      ours = await readWhole(file, served.answers);
      say('(new, restarted)', file, ours, served);
      expect(served.answers).toBe(o.prompts.length);
      expect(ours.skipped).toBe(0);
      expect(ours.entries.length).toBe(served.answers);
      expect(ours.tokens).toEqual(served.tokens);
      o.check?.({ ours, served: served.tokens });

      // What the user sees says the same, to the token: the runner's figures in host.json (ls, the
      // board, budgets), and `agent-board usage`.
      const kept = await until(
        "the runner's usage in host.json to hold every answer",
        () => {
          const u = (lane.record(id) as { usage?: { tokens: TokenCounts } } | undefined)?.usage;
          return u && JSON.stringify(u.tokens) === JSON.stringify(served.tokens) ? u : undefined;
        },
        15_000,
        async () => `host.json usage: ${JSON.stringify((lane.record(id) as { usage?: unknown } | undefined)?.usage)}`,
      );
      expect(kept.tokens).toEqual(served.tokens);
      const report = await lane.ab(['usage', '--json']);
      expect(report.code, report.stderr).toBe(0);
      const total = (JSON.parse(report.stdout) as { total: { tokens: TokenCounts; messages: number } }).total;
      console.log(`[usage lane] ${kind}: agent-board usage --json total ${JSON.stringify(total)}`);
      expect(total.tokens).toEqual(served.tokens);
      expect(total.messages).toBe(served.answers);
      const table = await lane.ab(['usage', '--by', 'kind']);
      expect(table.code, table.stderr).toBe(0);
      console.log(`[usage lane] ${kind}: agent-board usage --by kind\n${table.stdout}`);
    });

    if (o.ccusage) {
      const { bin, compare } = o.ccusage;
      const cc = findCcusage(bin);
      const what = `${bin} reads the same files: its totals beside ours`;
      if ('skip' in cc) notRunBanner(`usage lane: ${kind}: ${what}`, cc.skip);
      it.skipIf('skip' in cc)('skip' in cc ? `${what}: NOT RUN: ${cc.skip}` : what, async () => {
        expect(ours, 'the turns ran').toBeDefined();
        await compare({ home: lane.home, file, ours, run: (args, env) => runJson((cc as { bin: string }).bin, args, env) });
      });
    }

    it("a fork's transcript gives what the fork spent, not what its source had spent before it", async () => {
      expect(ours, 'the turns ran').toBeDefined();
      const t = Date.now();
      const r = await lane.ab(['fork', 'u', '--name', 'uf']);
      expect(r.code, r.stderr).toBe(0);
      const fid = r.stdout.trim();
      const flog = lane.watch(fid);
      await backIdle('uf', fid, t);
      const before = lane.mock.entries().length;
      await turn('uf', fid, flog, 'On the fork: usage check 9');
      const served = servedBy(lane.mock.entries().slice(before));
      // Codex and Gemini name the fork's conversation after its turn (their hooks, or the file Gemini imported into).
      const forkFile = await until("the fork's transcript", () => transcript(fid), 10_000);
      expect(forkFile).not.toBe(file);
      const theirs = await readWhole(forkFile, served.answers);
      say('fork', forkFile, theirs, served);
      expect(theirs.skipped).toBe(0);
      expect(theirs.tokens).toEqual(served.tokens);
      // The source's transcript is as it was.
      expectWhole('the source', file, ours);
      fork = { id: fid, file: forkFile, read: theirs };
    });

    // Gemini CLI deletes, at its start, every file of a conversation it finds an empty twin of, and
    // it leaves such a twin at each resume and fork: the runner removes them (src/core/agents/gemini-twins.ts).
    it('another session of the kind started in the same project leaves both conversations whole, and the fork resumes', async () => {
      expect(fork, 'the fork ran').toBeDefined();
      const other = (await lane.newSession(['--agent', kind, '--name', 'u3', '--', ...setup.words])).id;
      third = { id: other, log: lane.watch(other) };
      await until('u3 idle after start', () => idleNotBytes(other), START_MS, screen('u3'));
      await lane.settled(other);
      expectWhole('the source', file, ours);
      expectWhole('the fork', fork!.file, fork!.read);
      const t = Date.now();
      const r = await lane.ab(['restart', 'uf']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/resumed/);
      await backIdle('uf', fork!.id, t);
    });

    // That restart was a start of the kind in the project while u3 had taken no turn: Gemini deletes
    // such a session's start-up file, and its first turn is then written without metadata, which
    // neither Gemini nor we could find again; the runner gives it back (src/core/agents/gemini-twins.ts).
    it("a session that had taken no turn when another started keeps its first turn: found, read to the token, resumed", async () => {
      expect(third, 'u3 ran').toBeDefined();
      const { id: tid, log: tlog } = third!;
      const before = lane.mock.entries().length;
      await turn('u3', tid, tlog, 'The third one: usage check 10');
      const served = servedBy(lane.mock.entries().slice(before));
      const f = await until("u3's transcript", () => transcript(tid), 10_000, async () => `the folder holds:\n${folderListing(path.dirname(file))}`);
      const read = await readWhole(f, served.answers);
      say('third', f, read, served);
      expect(read.tokens).toEqual(served.tokens);
      const t = Date.now();
      const r = await lane.ab(['restart', 'u3']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/resumed/);
      await backIdle('u3', tid, t);
    });
  });
}
