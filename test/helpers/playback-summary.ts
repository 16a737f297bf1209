/**
 * The playback test's summary: per kind and way, right/total labelled
 * moments, and per recording; per kind and way, the flip latency (recording event to the
 * runner's status change) p50 and max, and the flips never made; then every
 * wrong moment with what the runner showed.
 */
import { percentile, type Flip, type Verdict } from './moment-judge.js';
import { WAYS, type Way } from './playback.js';

export interface RunResult {
  file: string;
  kind: string;
  way: Way;
  verdicts: Verdict[];
  flips: Flip[];
  /** The `shell` way: ms from the stand-in's start until the session named it its foreground agent, and from its end until it did not. */
  followMs?: number | null;
  backMs?: number | null;
  error?: string;
}

const pad = (s: string, n: number) => s.padEnd(n);
const ms = (x: number | null) => (x === null ? '-' : `${Math.round(x)}`);

export function summaryTable(results: RunResult[]): string {
  const kinds = [...new Set(results.map((r) => r.kind))].sort();
  const lines: string[] = [];
  lines.push('labelled moments right/total (a = --agent, b = by name, c = typed into a shell, d = forced shell, bytes only)');
  lines.push(`${pad('kind', 8)}${WAYS.map((w, k) => pad(`${'abcd'[k]} ${w}`, 12)).join('')}`);
  for (const kind of kinds) {
    const cells = WAYS.map((way) => {
      const v = results.filter((r) => r.kind === kind && r.way === way).flatMap((r) => r.verdicts);
      return pad(`${v.filter((x) => x.ok).length}/${v.length}`, 12);
    });
    lines.push(`${pad(kind, 8)}${cells.join('')}`);
  }
  lines.push('');
  lines.push('per recording, right/total');
  const files = [...new Set(results.map((r) => r.file))].sort();
  const width = Math.max(...files.map((f) => f.length)) + 2;
  lines.push(`${pad('recording', width)}${WAYS.map((w, k) => pad(`${'abcd'[k]} ${w}`, 12)).join('')}`);
  for (const file of files) {
    const cells = WAYS.map((way) => {
      const v = results.filter((r) => r.file === file && r.way === way).flatMap((r) => r.verdicts);
      return pad(`${v.filter((x) => x.ok).length}/${v.length}`, 12);
    });
    lines.push(`${pad(file, width)}${cells.join('')}`);
  }
  lines.push('');
  lines.push('flip latency, ms from the recording event to the runner\'s change: p50/max of n flips (missed)');
  lines.push(`${pad('kind', 8)}${WAYS.map((w, k) => pad(`${'abcd'[k]} ${w}`, 20)).join('')}${pad('all', 20)}`);
  for (const kind of kinds) {
    const cell = (rs: RunResult[]) => {
      const f = rs.flatMap((r) => r.flips);
      const made = f.flatMap((x) => (x.latency === null ? [] : [x.latency]));
      return pad(`${ms(percentile(made, 0.5))}/${ms(percentile(made, 1))} of ${f.length} (${f.length - made.length})`, 20);
    };
    const mine = results.filter((r) => r.kind === kind);
    lines.push(`${pad(kind, 8)}${WAYS.map((way) => cell(mine.filter((r) => r.way === way))).join('')}${cell(mine)}`);
  }
  const shell = results.filter((r) => r.way === 'shell');
  const known = (xs: Array<number | null | undefined>) => xs.flatMap((x) => (typeof x === 'number' ? [x] : []));
  const follow = known(shell.map((r) => r.followMs));
  const back = known(shell.map((r) => r.backMs));
  lines.push('');
  lines.push(
    `typed into a shell: named the foreground agent ${ms(percentile(follow, 0.5))}/${ms(percentile(follow, 1))} ms (p50/max) after the program started ` +
      `(${shell.length - follow.length} never); a shell again ${ms(percentile(back, 0.5))}/${ms(percentile(back, 1))} ms after it ended (${shell.length - back.length} never)`,
  );
  const wrong = results.flatMap((r) => r.verdicts.filter((v) => !v.ok).map((v) => ({ r, v })));
  if (wrong.length) {
    lines.push('');
    lines.push('wrong moments:');
    for (const { r, v } of wrong) lines.push(`  ${r.way} ${r.file} @${v.moment.at} "${v.moment.name}": want ${v.want}, runner showed ${v.seen} (it said: ${v.around})`);
  }
  for (const r of results.filter((x) => x.error)) lines.push(`  ${r.way} ${r.file}: ${r.error}`);
  return lines.join('\n');
}
