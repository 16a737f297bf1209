/**
 * config.json's `sandbox` (docs/file-formats.md, docs/sandbox.md "Turning it on"): which kinds'
 * and rooms' new sessions are sandboxed by default and how, the hosts every sandboxed session of a
 * kind may reach, the paths none may read. Parsed here, pure: a bad entry is one line in `errors`
 * and is left out, so a typo never stops the board or a runner.
 */
import { allowHostProblem } from './default-hosts.js';
import { expandHome } from './deny-list.js';
import { SANDBOX_NETWORKS, type SandboxBackend, type SandboxNetwork, type SandboxSetting } from './sandbox-types.js';

export interface SandboxConfig {
  /** Per agent kind: its new sessions are sandboxed so (`new --no-sandbox` overrides). */
  kinds: Record<string, SandboxSetting>;
  /** Per chat room: its new sessions are sandboxed so; a room's entry wins over the kind's. */
  rooms: Record<string, SandboxSetting>;
  /** Hosts a sandboxed session may reach beyond its kind's own list: per kind, and `*` for every kind. */
  allowHosts: Record<string, string[]>;
  /** Paths no sandboxed session may read, beyond the default deny list: absolute or `~/...`. */
  denyRead: string[];
}

export const NO_SANDBOX_CONFIG: Readonly<SandboxConfig> = Object.freeze({ kinds: {}, rooms: {}, allowHosts: {}, denyRead: [] });

/** The network a sandbox gets when none is named: only the kind's hosts and the listed ones. */
export const DEFAULT_SANDBOX_NETWORK: SandboxNetwork = 'allowlist';

/** What is wrong with a deny-read path as config.json gives it (null: nothing): absolute, or under the home (`~`, `~/x`). */
export function checkDenyPath(p: string): string | null {
  if (p.startsWith('/') || p === '~' || p.startsWith('~/')) return null;
  return `path "${p}" must be absolute or start with ~/`;
}

/**
 * `--sandbox`'s value (and a config entry's backend): absent or `bwrap`, `container`,
 * `container:IMAGE`. The image is podman's or docker's reference, taken as written.
 */
export function parseSandboxBackend(v: string | undefined): { backend: SandboxBackend; image?: string } | string {
  if (v === undefined || v === '' || v === 'bwrap') return { backend: 'bwrap' };
  if (v === 'container') return { backend: 'container' };
  if (v.startsWith('container:') && v.length > 'container:'.length && !/\s/.test(v)) return { backend: 'container', image: v.slice('container:'.length) };
  return `unknown sandbox "${v}": use bwrap, container or container:IMAGE`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A list of strings each `check` accepts; the others are an error line each. */
function stringList(v: unknown, where: string, check: (s: string) => string | null, errors: string[]): string[] {
  if (!Array.isArray(v)) {
    errors.push(`${where} must be a list of strings; ignored`);
    return [];
  }
  const out: string[] = [];
  for (const s of v) {
    const bad = typeof s === 'string' ? check(s) : `${JSON.stringify(s)} is not a string`;
    if (bad) errors.push(`${where}: ${bad}; ignored`);
    else if (!out.includes(s as string)) out.push(s as string);
  }
  return out;
}

/** One kind's or room's entry: `true` (bubblewrap, allowlist) or `{backend, image, network, allowHosts, denyRead}`. */
function parseEntry(v: unknown, where: string, errors: string[]): SandboxSetting | null {
  if (v === true) return { backend: 'bwrap', network: DEFAULT_SANDBOX_NETWORK };
  if (!isObject(v)) {
    errors.push(`${where} must be true or an object like {"network": "allowlist"}; ignored`);
    return null;
  }
  for (const k of Object.keys(v)) {
    if (!['backend', 'image', 'network', 'allowHosts', 'denyRead'].includes(k)) errors.push(`${where}: unknown setting "${k}" ignored`);
  }
  let backend: SandboxBackend = 'bwrap';
  if (v.backend !== undefined) {
    if (v.backend !== 'bwrap' && v.backend !== 'container') {
      errors.push(`${where}."backend" must be "bwrap" or "container"; ignored`);
      return null;
    }
    backend = v.backend;
  }
  const setting: SandboxSetting = { backend, network: DEFAULT_SANDBOX_NETWORK };
  if (v.image !== undefined) {
    if (backend !== 'container' || typeof v.image !== 'string' || v.image === '' || /\s/.test(v.image)) {
      errors.push(`${where}."image" goes with "backend": "container" and is an image name; ignored`);
      return null;
    }
    setting.image = v.image;
  }
  if (v.network !== undefined) {
    if (!SANDBOX_NETWORKS.includes(v.network as SandboxNetwork)) {
      errors.push(`${where}."network" must be one of ${SANDBOX_NETWORKS.join(', ')}; ignored`);
      return null;
    }
    setting.network = v.network as SandboxNetwork;
  }
  if (v.allowHosts !== undefined) {
    const hosts = stringList(v.allowHosts, `${where}."allowHosts"`, allowHostProblem, errors);
    if (hosts.length) setting.allowHosts = hosts;
  }
  if (v.denyRead !== undefined) {
    const paths = stringList(v.denyRead, `${where}."denyRead"`, checkDenyPath, errors);
    if (paths.length) setting.denyRead = paths;
  }
  return setting;
}

/** `v` is config.json's `sandbox` value; `file` names the file in the errors. */
export function parseSandboxConfig(v: unknown, file: string, errors: string[]): SandboxConfig {
  const config: SandboxConfig = { kinds: {}, rooms: {}, allowHosts: {}, denyRead: [] };
  const at = `${file}: "sandbox"`;
  if (!isObject(v)) {
    errors.push(`${at} must be an object like {"kinds": {"codex": {"network": "allowlist"}}}; ignored`);
    return config;
  }
  for (const k of Object.keys(v)) {
    if (!['kinds', 'rooms', 'allowHosts', 'denyRead'].includes(k)) errors.push(`${at}: unknown setting "${k}" ignored (known: kinds, rooms, allowHosts, denyRead)`);
  }
  for (const group of ['kinds', 'rooms'] as const) {
    const g = v[group];
    if (g === undefined) continue;
    if (!isObject(g)) {
      errors.push(`${at}."${group}" must be an object of ${group === 'kinds' ? 'agent kinds' : 'rooms'}; ignored`);
      continue;
    }
    for (const [name, e] of Object.entries(g)) {
      if (e === false) continue;
      const s = parseEntry(e, `${at}."${group}"."${name}"`, errors);
      if (s) config[group][name] = s;
    }
  }
  if (v.allowHosts !== undefined) {
    if (!isObject(v.allowHosts)) errors.push(`${at}."allowHosts" must be an object like {"*": ["internal.example.com"]}; ignored`);
    else
      for (const [kind, list] of Object.entries(v.allowHosts)) {
        const hosts = stringList(list, `${at}."allowHosts"."${kind}"`, allowHostProblem, errors);
        if (hosts.length) config.allowHosts[kind] = hosts;
      }
  }
  if (v.denyRead !== undefined) config.denyRead = stringList(v.denyRead, `${at}."denyRead"`, checkDenyPath, errors);
  return config;
}

/**
 * The sandbox a new session of `kind` in `room` gets when it names none: the room's, else the
 * kind's, else none. Its `denyRead` made absolute in `home`, as a record keeps it.
 */
export function defaultSandbox(config: SandboxConfig, kind: string, room: string, home: string): SandboxSetting | null {
  const s = config.rooms[room] ?? config.kinds[kind] ?? null;
  return s?.denyRead ? { ...s, denyRead: s.denyRead.map((p) => expandHome(p, home) ?? p) } : s;
}
