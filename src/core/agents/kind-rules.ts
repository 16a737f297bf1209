/**
 * Agent kinds as data: the shipped rule files (src/core/agents/rules/<kind>.json,
 * one kind each) and the user's own file (docs/agents.md: "Rules you can
 * fix") compiled into one registry. A rule file names the programs a kind is
 * recognised by and its title and screen patterns; the user's file may also
 * set a kind's settle markers, Enter delay and the rest of its typing rules,
 * or define a kind we do not ship (a wrapper, another agent).
 *
 * Pure: the caller reads the files and hands over their text. A bad entry is
 * one error line naming the file and the entry; everything else still loads.
 */
import type { Activity, ActivitySource } from './activity.js';
import { AGENT_KINDS, MIN_ENTER_DELAY_MS, type AgentKind } from './agent-kinds.js';
import { NO_CONVERSATION } from './conversation.js';
import type { KindDetectors, ScreenPattern, ScreenRegion, TitlePattern } from './status-detectors.js';

/** A kind with everything the runner and the CLI need, its patterns compiled. */
export interface ResolvedKind extends AgentKind {
  /** Program names it is recognised by (`claude`, through symlinks and wrappers such as npx). */
  programs: readonly string[];
  /** npm packages whose files it runs from (`@anthropic-ai/claude-code`). */
  packages: readonly string[];
  detectors: KindDetectors;
  /** The files its rules came from, shipped first. */
  ruleFiles: readonly string[];
}

export interface RuleSource {
  /** How the file is named to the user (a path). */
  file: string;
  text: string;
}

export interface KindRegistry {
  kinds: ReadonlyMap<string, ResolvedKind>;
  /** One line per bad entry or file. */
  errors: readonly string[];
  files: readonly string[];
}

const ACTIVITIES: readonly Activity[] = ['busy', 'idle', 'waiting'];
const SOURCES: readonly ActivitySource[] = ['hook', 'title', 'screen', 'bytes'];
const KIND_NAME = /^[a-z][a-z0-9_-]{0,31}$/;
/** Fields of a kind entry besides its patterns, each with its check. */
const SCALARS: Readonly<Record<string, (v: unknown) => string | null>> = {
  programs: (v) => (isStringList(v) ? null : 'must be a list of program names'),
  packages: (v) => (isStringList(v) ? null : 'must be a list of npm package names'),
  settleMarkers: (v) => (isStringList(v) && v.every((s) => s !== '') ? null : 'must be a list of non-empty strings'),
  enterDelayMs: (v) => (Number.isInteger(v) && (v as number) >= MIN_ENTER_DELAY_MS && (v as number) <= 10_000 ? null : `must be a whole number of ms from ${MIN_ENTER_DELAY_MS} to 10000`),
  jiggle: (v) => (v === 'size' || v === 'winch' ? null : 'must be "size" or "winch"'),
  multiline: (v) => (v === 'bracketed-paste' || v === 'typed' ? null : 'must be "bracketed-paste" or "typed"'),
  repaintStarved: (v) => (typeof v === 'boolean' ? null : 'must be true or false'),
  enterAfterEcho: (v) => (typeof v === 'boolean' ? null : 'must be true or false'),
  statusSources: (v) => (isStringList(v) && v.every((s) => (SOURCES as readonly string[]).includes(s)) ? null : `must be a list of ${SOURCES.join(', ')}`),
  command: (v) => (typeof v === 'string' && v !== '' ? null : 'must be a program name'),
};
const KNOWN_FIELDS = new Set([...Object.keys(SCALARS), 'kind', 'extends', 'title', 'screen', 'replacePatterns', 'why']);

function isStringList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((s) => typeof s === 'string');
}
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function compile(source: string): RegExp | string {
  try {
    return new RegExp(source, 'u');
  } catch (err) {
    return `invalid regular expression: ${(err as Error).message}`;
  }
}

function region(v: unknown): ScreenRegion | null {
  if (v === 'screen') return { kind: 'screen' };
  if (v === 'lastBox') return { kind: 'lastBox' };
  if (isObject(v) && Number.isInteger(v.tail) && (v.tail as number) >= 1 && (v.tail as number) <= 200) return { kind: 'tail', lines: v.tail as number };
  return null;
}

type Pattern = (TitlePattern | ScreenPattern) & { disable?: boolean };

/** One pattern entry, or the reason it is refused. */
function compilePattern(v: unknown, layer: 'title' | 'screen', file: string): Pattern | string {
  if (!isObject(v)) return 'must be an object';
  if (typeof v.name !== 'string' || v.name === '') return 'needs a "name"';
  if (v.disable === true) return { name: v.name, activity: 'idle', match: /$^/, disable: true, file };
  if (typeof v.activity !== 'string' || !(ACTIVITIES as readonly string[]).includes(v.activity)) return `"activity" must be one of ${ACTIVITIES.join(', ')}`;
  const activity = v.activity as Activity;
  if (layer === 'title') {
    if (typeof v.match !== 'string') return '"match" must be a regular expression (a string)';
    const re = compile(v.match);
    return typeof re === 'string' ? re : { name: v.name, activity, match: re, file };
  }
  const where = region(v.where ?? { tail: 4 });
  if (!where) return '"where" must be "screen", "lastBox" or {"tail": N}';
  const rows = typeof v.match === 'string' ? [v.match] : v.match;
  if (!isStringList(rows) || rows.length === 0) return '"match" must be a regular expression or a list of them, one per row';
  const match: RegExp[] = [];
  for (const r of rows) {
    const re = compile(r);
    if (typeof re === 'string') return re;
    match.push(re);
  }
  if (v.repeat === undefined) return { name: v.name, activity, where, match, file };
  if (!Number.isInteger(v.repeat) || (v.repeat as number) < 0 || (v.repeat as number) >= match.length) return '"repeat" must be the index of one of its "match" rows';
  return { name: v.name, activity, where, match, repeat: v.repeat as number, file };
}

interface Draft {
  base: AgentKind;
  fields: Record<string, unknown>;
  title: Pattern[];
  screen: Pattern[];
  files: string[];
  /** Made with "extends": its layers are its parent's. */
  inherits?: boolean;
}

/** Patterns merged by name: a later one of the same name replaces (or, with "disable", removes) the earlier. */
function mergePatterns(into: Pattern[], add: readonly Pattern[]): Pattern[] {
  const out = [...into];
  for (const p of add) {
    const i = out.findIndex((q) => q.name === p.name);
    if (i >= 0) out.splice(i, 1);
    if (!p.disable) out.push(p);
  }
  return out;
}

/** Applies one kind entry of a file to the drafts; errors go to `errors`. */
function applyEntry(drafts: Map<string, Draft>, name: string, entry: unknown, file: string, errors: string[]): void {
  const where = `${file}: kind "${name}"`;
  if (!KIND_NAME.test(name)) return void errors.push(`${where}: a kind's name is lower-case letters, digits, - and _`);
  if (!isObject(entry)) return void errors.push(`${where}: must be an object`);
  let draft = drafts.get(name);
  if (!draft) {
    const parent = typeof entry.extends === 'string' ? drafts.get(entry.extends) : undefined;
    if (entry.extends !== undefined && !parent) return void errors.push(`${where}: "extends" names no known kind (${String(entry.extends)})`);
    draft = parent
      ? { base: { ...parent.base, name, command: parent.base.command }, fields: { ...parent.fields, programs: [], packages: [] }, title: [...parent.title], screen: [...parent.screen], files: [...parent.files], inherits: true }
      : { base: newKind(name), fields: {}, title: [], screen: [], files: [] };
    drafts.set(name, draft);
  }
  draft.files.push(file);
  for (const [key, value] of Object.entries(entry)) {
    if (!KNOWN_FIELDS.has(key)) {
      errors.push(`${where}: unknown field "${key}" (ignored)`);
      continue;
    }
    const check = SCALARS[key];
    if (!check) continue;
    const bad = check(value);
    if (bad) errors.push(`${where}: "${key}" ${bad} (ignored)`);
    else draft.fields[key] = key === 'programs' || key === 'packages' ? [...new Set([...((draft.fields[key] as string[]) ?? []), ...(value as string[])])] : value;
  }
  if (entry.replacePatterns === true) {
    draft.title = [];
    draft.screen = [];
  }
  for (const layer of ['title', 'screen'] as const) {
    const list = entry[layer];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      errors.push(`${where}: "${layer}" must be a list of patterns (ignored)`);
      continue;
    }
    const good: Pattern[] = [];
    list.forEach((v, i) => {
      const p = compilePattern(v, layer, file);
      const label = isObject(v) && typeof v.name === 'string' ? ` (${v.name})` : '';
      if (typeof p === 'string') errors.push(`${where}: ${layer}[${i}]${label} ${p} (this pattern ignored)`);
      else good.push(p);
    });
    draft[layer] = mergePatterns(draft[layer], good);
  }
}

/** A kind we do not ship: its program, bytes below whatever patterns it has. */
function newKind(name: string): AgentKind {
  return {
    name,
    command: name,
    args: [],
    env: {},
    statusSources: ['bytes'],
    hookEvents: {},
    settleMarkers: ['\x1b[2J'],
    jiggle: 'size',
    enterDelayMs: MIN_ENTER_DELAY_MS,
    repaintStarved: false,
    enterAfterEcho: false,
    multiline: 'bracketed-paste',
    conversation: NO_CONVERSATION,
    wiring: null,
  };
}

function resolve(d: Draft, shippedKind: boolean): ResolvedKind {
  const f = d.fields;
  const title = d.title.filter((p): p is TitlePattern => !p.disable && p.match instanceof RegExp);
  const screen = d.screen.filter((p): p is ScreenPattern => !p.disable && Array.isArray(p.match));
  let sources = (f.statusSources as ActivitySource[] | undefined) ?? d.base.statusSources;
  if (!shippedKind && !d.inherits && f.statusSources === undefined) {
    // A kind of the user's: every layer it has patterns for, bytes last.
    sources = [...d.base.statusSources.filter((s) => s === 'hook'), ...(title.length ? ['title' as const] : []), ...(screen.length ? ['screen' as const] : []), 'bytes'];
  }
  const programs = (f.programs as string[] | undefined) ?? [];
  return {
    ...d.base,
    // A kind of the user's runs its first program unless it names a command.
    command: (f.command as string | undefined) ?? (!shippedKind && programs[0] ? programs[0] : d.base.command),
    statusSources: sources,
    settleMarkers: (f.settleMarkers as string[] | undefined) ?? d.base.settleMarkers,
    enterDelayMs: (f.enterDelayMs as number | undefined) ?? d.base.enterDelayMs,
    jiggle: (f.jiggle as AgentKind['jiggle'] | undefined) ?? d.base.jiggle,
    multiline: (f.multiline as AgentKind['multiline'] | undefined) ?? d.base.multiline,
    repaintStarved: (f.repaintStarved as boolean | undefined) ?? d.base.repaintStarved,
    enterAfterEcho: (f.enterAfterEcho as boolean | undefined) ?? d.base.enterAfterEcho,
    programs,
    packages: (f.packages as string[] | undefined) ?? [],
    detectors: { title, screen },
    ruleFiles: [...new Set(d.files)],
  };
}

function parse(src: RuleSource, errors: string[]): unknown {
  try {
    return JSON.parse(src.text);
  } catch (err) {
    errors.push(`${src.file}: not JSON: ${(err as Error).message} (the whole file is ignored)`);
    return undefined;
  }
}

/**
 * The registry from the shipped rule files (one kind each, `{"kind": name,
 * ...}`) and the user's files (`{"kinds": {name: {...}}}`), applied in order.
 * Every built-in kind of AGENT_KINDS is present even without a file.
 */
export function buildKindRegistry(shipped: readonly RuleSource[], user: readonly RuleSource[] = []): KindRegistry {
  const errors: string[] = [];
  const drafts = new Map<string, Draft>();
  for (const k of Object.values(AGENT_KINDS)) drafts.set(k.name, { base: k, fields: {}, title: [], screen: [], files: [] });
  for (const src of shipped) {
    const doc = parse(src, errors);
    if (doc === undefined) continue;
    if (!isObject(doc) || typeof doc.kind !== 'string') {
      errors.push(`${src.file}: a rule file holds one kind: {"kind": "<name>", ...}`);
      continue;
    }
    applyEntry(drafts, doc.kind, doc, src.file, errors);
  }
  const shippedNames = new Set(drafts.keys());
  for (const src of user) {
    const doc = parse(src, errors);
    if (doc === undefined) continue;
    if (!isObject(doc) || !isObject(doc.kinds)) {
      errors.push(`${src.file}: must be {"kinds": {"<name>": {...}}} (the whole file is ignored)`);
      continue;
    }
    for (const [name, entry] of Object.entries(doc.kinds)) applyEntry(drafts, name, entry, src.file, errors);
  }
  const kinds = new Map<string, ResolvedKind>();
  for (const [name, d] of drafts) kinds.set(name, resolve(d, shippedNames.has(name)));
  return { kinds, errors, files: [...shipped, ...user].map((s) => s.file) };
}

/** The kind by name; unknown names are a plain shell. */
export function kindOf(registry: KindRegistry, name: string): ResolvedKind {
  return registry.kinds.get(name) ?? registry.kinds.get('shell')!;
}
