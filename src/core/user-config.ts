/**
 * The user's settings file, config.json in the config home (docs/file-formats.md):
 * parsed here, pure; read by src/state/config.ts. A bad entry is one line in
 * `errors` and its default is used: a typo never stops the board or a runner.
 */
import type { ModelPrice } from './usage/price-list.js';
import { parsePrices } from './usage/prices.js';
import { NO_BUDGETS, parseBudgetsConfig, type BudgetsConfig } from './usage/budget.js';
import { DEFAULT_RESUME_PER_DAY, DEFAULT_RESUME_PROMPT } from './usage/limit-state.js';
import { NO_SANDBOX_CONFIG, parseSandboxConfig, type SandboxConfig } from './sandbox/sandbox-config.js';

export interface UserConfig {
  /** Machines whose sessions the board lists beside the local ones (`--host` adds to them). */
  hosts: string[];
  /** Lost sessions are revived without asking when the board starts, and by `revive --if-configured` (a login or boot unit). */
  autoRevive: boolean;
  /** Runners start in a transient systemd user scope where systemd is there, so logind does not end them at logout. */
  systemdScope: boolean;
  /** Prices per model over the shipped ones, dollars per million tokens (docs/usage.md). */
  prices: Record<string, ModelPrice>;
  /** Budgets per room and per day (docs/usage.md, "Budgets"). */
  budgets: BudgetsConfig;
  /** Per agent kind: its new sessions carry on after a usage limit as with `new --resume-after-limit` (docs/usage.md). */
  resumeAfterLimit: Record<string, { prompt: string; perDay: number }>;
  /** Sandboxed by default per kind or room, the hosts they may reach, the paths none may read (docs/sandbox.md). */
  sandbox: SandboxConfig;
}

export const DEFAULT_CONFIG: Readonly<UserConfig> = Object.freeze({ hosts: [], autoRevive: false, systemdScope: true, prices: {}, budgets: NO_BUDGETS, resumeAfterLimit: {}, sandbox: NO_SANDBOX_CONFIG });

export interface ParsedConfig {
  config: UserConfig;
  errors: string[];
}

/** A host as ssh takes it: `[user@]host`, never something ssh would read as an option. */
export function isHostSpec(v: unknown): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= 255 && !v.startsWith('-') && !/[\s\x00-\x1f\x7f]/.test(v) && !v.endsWith('@') && !v.startsWith('@');
}

const KNOWN = new Set<string>(['hosts', 'autoRevive', 'systemdScope', 'prices', 'budgets', 'resumeAfterLimit', 'sandbox']);

/** `text` is the file's content; `file` names it in the errors. */
export function parseUserConfig(text: string, file: string): ParsedConfig {
  const config: UserConfig = { ...DEFAULT_CONFIG, hosts: [], prices: {}, resumeAfterLimit: {} };
  const errors: string[] = [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // JSON.parse quotes the bad character, a newline included: the line stays one line.
    return { config, errors: [`${file}: not JSON (${JSON.stringify((err as Error).message).slice(1, -1)}); using the defaults`] };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { config, errors: [`${file}: expected an object like {"hosts": ["box"]}; using the defaults`] };
  }
  const o = value as Record<string, unknown>;
  for (const key of Object.keys(o)) if (!KNOWN.has(key)) errors.push(`${file}: unknown setting "${key}" ignored (known: ${[...KNOWN].join(', ')})`);
  if ('hosts' in o) {
    if (!Array.isArray(o.hosts)) errors.push(`${file}: "hosts" must be a list of [user@]host strings; ignored`);
    else
      for (const h of o.hosts) {
        if (!isHostSpec(h)) errors.push(`${file}: host ${JSON.stringify(h)} ignored: use host or user@host`);
        else if (!config.hosts.includes(h)) config.hosts.push(h);
      }
  }
  for (const key of ['autoRevive', 'systemdScope'] as const) {
    if (!(key in o)) continue;
    if (typeof o[key] === 'boolean') config[key] = o[key];
    else errors.push(`${file}: "${key}" must be true or false; using ${String(DEFAULT_CONFIG[key])}`);
  }
  if ('prices' in o) {
    const p = parsePrices(o.prices, file);
    config.prices = p.prices;
    errors.push(...p.errors);
  }
  if ('budgets' in o) config.budgets = parseBudgetsConfig(o.budgets, file, errors);
  if ('resumeAfterLimit' in o) parseResume(o.resumeAfterLimit, file, config, errors);
  if ('sandbox' in o) config.sandbox = parseSandboxConfig(o.sandbox, file, errors);
  return { config, errors };
}

/**
 * `"resumeAfterLimit": {"claude": true, "codex": {"prompt": "go on", "perDay": 2}}`: per kind,
 * true (the default prompt and tries) or the prompt and the tries a day.
 */
function parseResume(v: unknown, file: string, config: UserConfig, errors: string[]): void {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    errors.push(`${file}: "resumeAfterLimit" must be an object of kinds, like {"claude": true}; ignored`);
    return;
  }
  for (const [kind, e] of Object.entries(v as Record<string, unknown>)) {
    if (e === false) continue;
    if (e === true) {
      config.resumeAfterLimit[kind] = { prompt: DEFAULT_RESUME_PROMPT, perDay: DEFAULT_RESUME_PER_DAY };
      continue;
    }
    const o = (typeof e === 'object' && e !== null && !Array.isArray(e) ? e : null) as Record<string, unknown> | null;
    const prompt = o?.prompt ?? DEFAULT_RESUME_PROMPT;
    const perDay = o?.perDay ?? DEFAULT_RESUME_PER_DAY;
    if (!o || typeof prompt !== 'string' || prompt.trim() === '' || !Number.isInteger(perDay) || (perDay as number) < 1) {
      errors.push(`${file}: "resumeAfterLimit"."${kind}" must be true, false or {"prompt": "<text>", "perDay": <1 or more>}; ignored`);
      continue;
    }
    config.resumeAfterLimit[kind] = { prompt, perDay: perDay as number };
  }
}
