/**
 * `agent-board explain` and the board's explain overlay (`e`) as lines of a
 * label and a text: one spelling of the runner's explanation for both.
 */
import type { LayerExplanation, StatusExplanation } from './status-explain.js';

/** How wide the label column is. */
export const EXPLAIN_LABEL_WIDTH = 9;

/** `12:03:04 (5s ago)`, or `never`. */
export function when(at: number | null | undefined, now: number): string {
  if (at === null || at === undefined) return 'never';
  const d = new Date(at);
  const hms = [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
  const s = Math.max(0, Math.round((now - at) / 1000));
  const ago = s < 60 ? `${s}s` : s < 3600 ? `${Math.floor(s / 60)}m` : `${Math.floor(s / 3600)}h`;
  return `${hms} (${ago} ago)`;
}

/** The overlay's lines, as label and text, from the runner's explanation. */
export function explainLines(e: StatusExplanation, now: number): [string, string][] {
  const lines: [string, string][] = [
    ['state', `${e.activity ?? 'none'} from ${e.source ?? 'no layer'}, since ${when(e.since, now)}`],
    ['decided', e.decidedBy],
    ['kind', `${e.kind}${e.effectiveKind !== e.kind ? `, rules of ${e.effectiveKind}` : ''}${e.foreground ? `; foreground ${e.foreground.command} (pid ${e.foreground.pid})` : ''}`],
  ];
  for (const l of e.layers) {
    lines.push([l.source, layerText(l, now)]);
    if (l.used && l.evidence) lines.push(['', `  read: ${JSON.stringify(l.evidence)}`]);
  }
  const h = e.hooks;
  const hook = [
    h.wired ? 'wired' : 'not wired',
    h.lastEvent ? `last ${h.lastEvent} at ${when(h.lastAt, now)}` : 'no event yet',
    ...(h.silent ? ['silent this turn: the layers below decide'] : []),
    ...(h.note ? [h.note] : []),
  ];
  lines.push(['hooks', hook.join('; ')]);
  lines.push(['rules', e.ruleFiles.length ? e.ruleFiles.join(', ') : 'none']);
  // Older runners send no ruleErrors.
  for (const err of e.ruleErrors ?? []) lines.push(['', `  refused: ${err}`]);
  return lines;
}

function layerText(l: LayerExplanation, now: number): string {
  if (!l.used) return 'not read for this kind';
  const parts = [l.activity ?? 'nothing', l.at === null ? 'never spoke' : when(l.at, now)];
  if (l.rule) parts.push(`rule ${l.rule.name} (${l.rule.file})`);
  return parts.join('  ');
}

/** The explanation as plain text, for the CLI. */
export function explanationText(name: string, e: StatusExplanation, now: number): string {
  const head = `${name}: ${e.activity ?? 'no state yet'}`;
  return [head, ...explainLines(e, now).map(([label, text]) => `${label.padEnd(EXPLAIN_LABEL_WIDTH)}${text}`.trimEnd())].join('\n');
}
