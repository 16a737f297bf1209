import { ago } from './ago.js';
import type { StatusExplanation } from './status-explain.js';

/** Clock time of day, hh:mm:ss, in UTC (the runner's and the reader's zones may differ; `ago` says the rest). */
function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

function when(ms: number | null, now: number): string {
  return ms === null ? '-' : `${clock(ms)} (${ago(new Date(ms).toISOString(), now)} ago)`;
}

/** `agent-board explain` as lines of text (the board's overlay draws the same facts). */
export function explanationLines(name: string, x: StatusExplanation, now: number): string[] {
  const out: string[] = [];
  const state = x.activity ? `${x.activity}, from the ${x.source}` : 'no state yet';
  out.push(`${name}: ${state}${x.since !== null ? `, since ${when(x.since, now)}` : ''}`);
  const kind = x.effectiveKind !== x.kind ? `${x.kind} › ${x.effectiveKind}` : x.kind;
  out.push(`kind: ${kind}${x.foreground ? ` (foreground: ${x.foreground.command}, pid ${x.foreground.pid})` : ''}`);
  out.push(`decided by: ${x.decidedBy}`);
  out.push('layers:');
  for (const l of x.layers) {
    if (!l.used) {
      out.push(`  ${l.source.padEnd(6)}  not used by this kind`);
      continue;
    }
    const what = (l.activity ?? 'says nothing').padEnd(11);
    const rule = l.rule ? `  ${l.rule.name}${l.rule.file ? ` (${l.rule.file})` : ''}` : '';
    const evidence = l.evidence ? `  ${JSON.stringify(l.evidence.slice(0, 80))}` : '';
    out.push(`  ${l.source.padEnd(6)}  ${what} ${l.at !== null ? when(l.at, now) : ''}${rule}${evidence}`.trimEnd());
  }
  const h = x.hooks;
  const last = h.lastEvent ? `; last ${h.lastEvent} at ${when(h.lastAt ?? null, now)}` : h.wired ? '; none fired yet' : '';
  out.push(`hooks: ${h.wired ? 'wired' : 'not wired'}${last}${h.silent ? '; SILENT this turn' : ''}`);
  if (h.note) out.push(`  ${h.note}`);
  out.push(`rules: ${x.ruleFiles.length ? x.ruleFiles.join(', ') : 'none read'}`);
  for (const e of x.ruleErrors) out.push(`  refused: ${e}`);
  return out;
}
