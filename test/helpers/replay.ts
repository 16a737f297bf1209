/**
 * A recording replayed in-process into a headless terminal, read after every
 * output or resize event the way the runner reads a session: the title and
 * the screen through the status detectors, each source keeping the time it
 * started saying what it says (nextReading), and the layered reading of the
 * two. The reference the detector test and the runner playback test judge by.
 */
import { layer, nextReading } from '../../src/core/agents/activity-layers.js';
import type { ActivityReading } from '../../src/core/agents/activity.js';
import { activityFromScreen, activityFromTitle, screenPatternMatches } from '../../src/core/agents/status-detectors.js';
import { DETECTORS } from './kinds.js';
import { Terminal } from '../../src/state/headless-terminal.js';
import { readRecording } from './recordings.js';

/** The runner's look at the screen after output (src/runner/activity/activity-tracker.ts; not imported, so this helper loads no runner). */
const SCREEN_CHECK_MS = 250;

/** What the sources say at one point of a replay. */
export interface State {
  t: number;
  title: ActivityReading | null;
  screen: ActivityReading | null;
  best: ActivityReading | null;
  rawTitle: string;
  lines: string[];
}

export interface Replay {
  kind: string;
  /** One state after every output or resize event, in order. */
  states: State[];
  /** Pattern names that matched at some state. */
  fired: Set<string>;
  inputs: { t: number; i: string }[];
}

export async function replay(file: string): Promise<Replay> {
  const { meta, events } = readRecording(file);
  const kind = meta.cmd.split(' ')[0]!;
  const term = new Terminal({ cols: meta.cols, rows: meta.rows, scrollback: 1000, allowProposedApi: true });
  let rawTitle = '';
  term.onTitleChange((t) => (rawTitle = t));
  const table = DETECTORS[kind]!;
  const out: Replay = { kind, states: [], fired: new Set(), inputs: [] };
  let title: ActivityReading | null = null;
  let screen: ActivityReading | null = null;
  let lines: string[] = [];
  /** One look at the title and the screen at `t` (the screen's reading says when it was last seen). */
  const look = (t: number, read: boolean) => {
    if (read) {
      const buf = term.buffer.active;
      lines = Array.from({ length: term.rows }, (_, y) => buf.getLine(buf.baseY + y)?.translateToString(true) ?? '');
    }
    title = nextReading(title, activityFromTitle(table, rawTitle), 'title', t);
    const s = nextReading(screen, activityFromScreen(table, lines), 'screen', t);
    screen = s && { ...s, seen: t };
    out.states.push({ t, title, screen, best: layer([title, screen]), rawTitle, lines });
  };
  let lastLook: number | null = null;
  for (const e of events) {
    // The runner looks again SCREEN_CHECK_MS after output: a screen that stays as it was is seen then too.
    if (lastLook !== null && e.t > lastLook + SCREEN_CHECK_MS) look(lastLook + SCREEN_CHECK_MS, false);
    lastLook = null;
    if (e.i !== undefined) out.inputs.push({ t: e.t, i: e.i });
    if (e.o !== undefined) await new Promise<void>((r) => term.write(e.o!, r));
    else if (e.resize) term.resize(e.resize[0], e.resize[1]);
    else continue;
    look(e.t, true);
    lastLook = e.t;
    for (const p of table.title) if (p.match.test(rawTitle.trim())) out.fired.add(p.name);
    const rows = lines.map((l) => l.trim());
    for (const p of table.screen) if (screenPatternMatches(p, rows)) out.fired.add(p.name);
  }
  term.dispose();
  return out;
}

/** The state once every event up to and including `t` has been played. */
export function stateAt(r: Replay, t: number): State {
  let found: State | undefined;
  for (const s of r.states) {
    if (s.t > t) break;
    found = s;
  }
  if (!found) throw new Error(`nothing played by ${t} ms`);
  return found;
}

