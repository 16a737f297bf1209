/**
 * One recording played through a real session: the stand-in
 * (test/fixtures/programs/play-recording.mjs) writes the recorded output into
 * the session's PTY at the recorded times, while this side, as the operator's
 * client, sends the recorded keys and resizes at theirs and keeps the
 * session's status timeline (status-timeline.ts). The stand-in's log gives the
 * wall-clock time of every event it played, so recording time maps onto the
 * runner's clock exactly.
 *
 * Four ways to start it (the session's kind must come out the same in the
 * first three):
 * - `agent`: `new --agent <kind> --command play-recording.mjs -- <file>`
 * - `name`:  `new -- <dir>/<kind> <file>`, <dir>/<kind> a link to the stand-in
 * - `shell`: `new -- bash`, then `<dir>/<kind> <file>` typed into it
 * - `bytes`: `new --agent shell -- <dir>/<kind> <file>`: a forced shell, bytes only
 */
import fs from 'node:fs';
import path from 'node:path';
import { cliAsync, ROOT, waitFor } from './home.js';
import { readRecording, RECORDINGS_DIR, type RecEvent } from './recordings.js';
import { StatusTimeline } from './status-timeline.js';

export const PLAYER = path.join(ROOT, 'test', 'fixtures', 'programs', 'play-recording.mjs');
export const WAYS = ['agent', 'name', 'shell', 'bytes'] as const;
export type Way = (typeof WAYS)[number];
export const AGENT_NAMES = ['claude', 'codex', 'gemini', 'pi'] as const;

/** A folder of links named like the CLIs, each to the stand-in (the way the npm installs link theirs). */
export function linkPrograms(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  for (const name of AGENT_NAMES) {
    const link = path.join(dir, name);
    if (!fs.existsSync(link)) fs.symlinkSync(PLAYER, link);
  }
  return dir;
}

/** A played event: its index in the recording, its recording time and when the stand-in wrote it. */
export interface Played {
  i: number;
  t: number;
  w: number;
}

export interface Playback {
  file: string;
  kind: string;
  way: Way;
  id: string;
  events: RecEvent[];
  /** Wall-clock ms the stand-in started playing (recording time 0). */
  start: number;
  played: Played[];
  timeline: StatusTimeline;
  /** What went wrong around the playback itself (not a judged moment). */
  problems: string[];
  /** The `shell` way: ms from the program's end until the session named no foreground agent (null: it never did). */
  backToShellMs: number | null;
}

export const kindOf = (file: string): string => readRecording(file).meta.cmd.split(' ')[0]!;

interface PlayerLog {
  start?: number;
  end?: number;
  played: Played[];
}

function readLog(file: string): PlayerLog {
  const out: PlayerLog = { played: [] };
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return out;
  }
  // The player appends while this reads: what follows the last newline is a line still being written (seen in CI under load).
  const lines = text.split('\n');
  lines.pop();
  for (const line of lines) {
    if (!line) continue;
    const o = JSON.parse(line) as { start?: number; end?: number } & Partial<Played>;
    if (o.start !== undefined) out.start = o.start;
    else if (o.end !== undefined) out.end = o.end;
    else if (o.i !== undefined) out.played.push(o as Played);
  }
  return out;
}

/** Wall-clock ms of recording time `t`, from the last event played at or before it. */
export function wallOf(p: { start: number; played: Played[] }, t: number): number {
  let w = p.start + t;
  for (const e of p.played) {
    if (e.t > t) break;
    w = e.w + (t - e.t);
  }
  return w;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

function newArgs(way: Way, kind: string, name: string, rec: string, links: string): string[] {
  const base = ['new', '--name', name];
  if (way === 'agent') return [...base, '--agent', kind, '--command', PLAYER, '--', rec];
  if (way === 'name') return [...base, '--', path.join(links, kind), rec];
  if (way === 'bytes') return [...base, '--agent', 'shell', '--', path.join(links, kind), rec];
  return [...base, '--', 'bash', '--norc', '--noprofile'];
}

export async function playThrough(home: string, file: string, way: Way, links: string): Promise<Playback> {
  const { meta, events } = readRecording(file);
  const kind = kindOf(file);
  const name = `${way}-${file.replace(/\.jsonl$/, '')}`;
  const logFile = path.join(home, `${name}.play.jsonl`);
  const rec = path.join(RECORDINGS_DIR, file);
  const env = { PLAY_RECORDING_LOG: logFile };
  const r = await cliAsync(home, newArgs(way, kind, name, rec, links), { env });
  if (r.code !== 0) throw new Error(`${name}: new failed (${r.code}): ${r.stderr}`);
  const id = r.stdout.trim();
  const timeline = await StatusTimeline.open(home, id);
  // `new` without a terminal starts at 80x24; the stand-in waits for the recording's size.
  timeline.resize(meta.cols, meta.rows);
  const problems: string[] = [];
  if (way === 'shell') {
    await waitFor(`${name}: the shell's prompt`, () => timeline.host?.lastOutputAt, 10_000);
    await sleep(300);
    timeline.input(`${path.join(links, kind)} ${rec}\r`);
  }
  let log = readLog(logFile);
  const startDeadline = Date.now() + 15_000;
  while (log.start === undefined) {
    if (Date.now() > startDeadline) throw new Error(`${name}: the stand-in never started`);
    await sleep(10);
    log = readLog(logFile);
  }
  const start = log.start;
  // The operator: every recorded key and resize at its time, as the played events place it.
  for (const e of events) {
    if (e.i === undefined && !e.resize) continue;
    for (;;) {
      const due = wallOf({ start, played: log.played }, e.t);
      if (Date.now() >= due) break;
      await sleep(Math.min(10, due - Date.now()));
      log = readLog(logFile);
    }
    if (e.resize) timeline.resize(e.resize[0], e.resize[1]);
    else timeline.input(e.i!);
  }
  const last = events.at(-1)!.t;
  const endDeadline = wallOf({ start, played: log.played }, last) + 30_000;
  while (log.end === undefined) {
    if (Date.now() > endDeadline) {
      problems.push('the stand-in never finished');
      break;
    }
    await sleep(50);
    log = readLog(logFile);
  }
  await sleep(300);
  // Typed into a shell: once the program is gone, the session is a shell again.
  let backToShellMs: number | null = null;
  if (way === 'shell' && log.end !== undefined) {
    const deadline = Date.now() + 5000;
    while (timeline.host?.foregroundAgent && Date.now() < deadline) await sleep(20);
    if (!timeline.host?.foregroundAgent) backToShellMs = Math.max(0, (timeline.kinds.at(-1)?.at ?? Date.now()) - log.end);
  }
  timeline.close();
  return { file, kind, way, id, events, start, played: log.played, timeline, problems, backToShellMs };
}

/** Runs `jobs` with at most `limit` at a time, in order of the list. */
export async function pool<T>(limit: number, jobs: Array<() => Promise<T>>): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < jobs.length; i = next++) out[i] = await jobs[i]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  return out;
}
