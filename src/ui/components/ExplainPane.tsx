import { Box, Text } from 'ink';
import type { ExplainOverlay } from '../../core/board-session-views.js';
import type { LayerExplanation, StatusExplanation } from '../../core/status-explain.js';
import { useNow } from '../hooks/useNow.js';
import { cut, fit, textWidth } from '../text-width.js';

export interface ExplainPaneProps {
  explain: ExplainOverlay;
  rows: number;
  width: number;
}

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

const LABEL = 9;

/** Why the session has its state: its runner's explanation (src/core/status-explain.ts), in place of the preview. */
export function ExplainPane({ explain: o, rows, width }: ExplainPaneProps) {
  const now = useNow(1000);
  const head = cut(`── why ${o.name} is ${o.explanation?.activity ?? '…'} `, width);
  const body = o.error ? null : o.explanation ? explainLines(o.explanation, now) : null;
  return (
    <Box flexDirection="column" width={width} height={rows + 1}>
      <Text wrap="truncate-end">
        <Text bold>{head}</Text>
        <Text dimColor>{'─'.repeat(Math.max(0, width - textWidth(head)))}</Text>
      </Text>
      {o.error ? (
        <Text color="red" wrap="truncate-end">{`cannot explain ${o.name}: ${o.error}`}</Text>
      ) : body ? (
        body.slice(0, rows).map(([label, text], i) => (
          <Text key={i} wrap="truncate-end">
            <Text color="cyan">{fit(label, LABEL)}</Text>
            {cut(text, Math.max(0, width - LABEL))}
          </Text>
        ))
      ) : (
        <Text dimColor>{`asking ${o.name}'s runner…`}</Text>
      )}
    </Box>
  );
}
