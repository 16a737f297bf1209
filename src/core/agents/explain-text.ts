/**
 * `agent-board explain` and the board's explain overlay (`e`) as lines of a
 * label and a text: one spelling of the runner's explanation for both.
 */
import type { HostRecord } from '../protocol/host-record.js';
import { limitCountdown, resetClock, triesLeft } from '../usage/limit-state.js';
import type { LayerExplanation, StatusExplanation } from './status-explain.js';

/** What explain says of usage limits, from the session's record. */
export type LimitFacts = Pick<HostRecord, 'limited' | 'resumeAfterLimit' | 'limitResumes'>;

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

/**
 * A usage limit (docs/usage.md): the agent's words, when they were seen and when the limit resets;
 * whether resume-after-limit is on, with what prompt and how many tries are left today. Nothing
 * when the session is neither limited nor set to resume.
 */
export function limitLines(r: LimitFacts, now: number): [string, string][] {
  const lines: [string, string][] = [];
  const l = r.limited;
  if (l) {
    const reset = l.resetAt ? `resets ${resetClock(l.resetAt, now)} (${limitCountdown(l.resetAt, now) === 'reset' ? 'passed: limited until it works again' : `in ${limitCountdown(l.resetAt, now)}`})` : 'the agent did not say when it resets';
    lines.push(['limit', `${JSON.stringify(l.line)} seen ${when(Date.parse(l.since), now)}; ${reset}`]);
  }
  const on = r.resumeAfterLimit;
  if (on) lines.push(['resume', `on: types ${JSON.stringify(on.prompt)} once a limit resets; ${triesLeft(r, now)} of ${on.perDay} tries left today`]);
  else if (l) lines.push(['resume', "off: it waits for you (new --resume-after-limit, or the board's L)"]);
  return lines;
}

/** The overlay's lines, as label and text, from the runner's explanation (and the record's limit, when given). */
export function explainLines(e: StatusExplanation, now: number, limits?: LimitFacts): [string, string][] {
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
  if (limits) lines.push(...limitLines(limits, now));
  return lines;
}

function layerText(l: LayerExplanation, now: number): string {
  if (!l.used) return 'not read for this kind';
  const parts = [l.activity ?? 'nothing', l.at === null ? 'never spoke' : when(l.at, now)];
  if (l.rule) parts.push(`rule ${l.rule.name} (${l.rule.file})`);
  return parts.join('  ');
}

/** The explanation as plain text, for the CLI. */
export function explanationText(name: string, e: StatusExplanation, now: number, limits?: LimitFacts): string {
  const head = `${name}: ${limits?.limited ? 'limited' : (e.activity ?? 'no state yet')}`;
  return [head, ...explainLines(e, now, limits).map(([label, text]) => `${label.padEnd(EXPLAIN_LABEL_WIDTH)}${text}`.trimEnd())].join('\n');
}
