/** `explain` for one session: the activity tracker's state, told layer by layer. */
import type { ActivityReading, ActivitySource } from '../../core/agents/activity.js';
import { LAYER_RULES, type Decision } from '../../core/agents/activity-layers.js';
import type { ResolvedKind } from '../../core/agents/kind-rules.js';
import type { HookExplanation, LayerExplanation, StatusExplanation } from '../../core/agents/status-explain.js';
import type { ForegroundProgram } from './foreground.js';

/** A layer's reading with what it matched, for `explain`. */
export interface TrackedReading extends ActivityReading {
  rule?: { name: string; file: string };
  evidence?: string;
}

const ALL_SOURCES: readonly ActivitySource[] = ['hook', 'title', 'screen', 'bytes'];

export interface TrackerFacts {
  kind: ResolvedKind;
  effective: ResolvedKind;
  foreground: ForegroundProgram | null;
  decision: Decision | null;
  since: number | null;
  readings: ReadonlyMap<ActivitySource, TrackedReading>;
  sources: readonly ActivitySource[];
  hooks: { wired: true } | { wired: false; note?: string };
  lastHook: { event: string; at: number } | null;
  hooksSilent: boolean;
  ruleFiles: readonly string[];
  ruleErrors: readonly string[];
}

/** The tracker's state as `explain` shows it. */
export function explainTracker(f: TrackerFacts): StatusExplanation {
  const layers: LayerExplanation[] = ALL_SOURCES.map((source) => {
    const r = f.readings.get(source);
    const used = f.sources.includes(source);
    return {
      source,
      used,
      activity: used ? (r?.activity ?? null) : null,
      at: used ? (r?.at ?? null) : null,
      ...(used && r?.rule ? { rule: r.rule } : {}),
      ...(used && r?.evidence ? { evidence: r.evidence } : {}),
    };
  });
  const d = f.decision;
  return {
    kind: f.kind.name,
    effectiveKind: f.effective.name,
    ...(f.foreground ? { foreground: { pid: f.foreground.pid, command: f.foreground.argv.join(' ').slice(0, 200) } } : {}),
    activity: d?.reading.activity ?? null,
    source: d?.reading.source ?? null,
    since: f.since,
    decidedBy: d ? `${d.rule}: ${LAYER_RULES[d.rule]}` : 'nothing yet: no layer has spoken',
    layers,
    hooks: hookFacts(f),
    ruleFiles: [...f.ruleFiles],
    ruleErrors: [...f.ruleErrors],
  };
}

function hookFacts(f: TrackerFacts): HookExplanation {
  if (f.effective !== f.kind) {
    const note = f.effective.wiring
      ? `${f.effective.name} was started by hand in this ${f.kind.name} session: its hooks cannot be wired into it, so its state comes from its title and screen (start it with: agent-board new -- ${f.effective.name})`
      : undefined;
    return { wired: false, ...(note ? { note } : {}) };
  }
  if (!f.kind.wiring && f.kind.statusSources.includes('hook') === false) return { wired: false, note: `kind ${f.kind.name} has no hooks` };
  const base: HookExplanation = f.hooks.wired ? { wired: true } : { wired: false, ...(f.hooks.note ? { note: f.hooks.note } : {}) };
  if (f.lastHook) Object.assign(base, { lastEvent: f.lastHook.event, lastAt: f.lastHook.at });
  if (f.hooksSilent) {
    base.silent = true;
    base.note = `${base.note ? `${base.note}; ` : ''}a turn began (the ${f.decision?.reading.source ?? 'screen'} said busy) and no hook came: the state comes from the layers below`;
  }
  return base;
}
