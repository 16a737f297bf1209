/**
 * Which hosts a `--network allowlist` sandbox may reach (docs/sandbox.md "What it may reach"): its
 * kind's own (the vendor's API, sign-in and the telemetry the CLI refuses to start without), the
 * package registries every kind gets (an agent installs things), config.json's `sandbox.allowHosts`
 * (for every kind under `*`, and per kind) and the session's own `--allow-host`. An entry is a host,
 * `*.domain` (any name under it, not the domain itself), or either with `:port` (an IP literal
 * too: `127.0.0.1:8080`, `[::1]:8080`); without a port, any port.
 */
import type { SandboxSetting } from './sandbox-types.js';

/** What every kind may reach: the package registries (npm, PyPI) and GitHub (git over HTTPS, release downloads, raw files). */
export const REGISTRY_HOSTS: readonly string[] = [
  'registry.npmjs.org',
  'pypi.org',
  'files.pythonhosted.org',
  'github.com',
  'codeload.github.com',
  'objects.githubusercontent.com',
  'raw.githubusercontent.com',
];

/** Each agent kind's own hosts; a kind not named here (a shell, a custom one) has only the registries. Sources: docs/sandbox.md. */
const KIND_HOSTS: Readonly<Record<string, readonly string[]>> = {
  // The API; sign-in and token refresh of a Claude account (claude.ai, console/platform); feature flags and error reports;
  // its updates (2.1.332 asks downloads.claude.ai at every start: the sandboxed lane saw it refused).
  claude: ['api.anthropic.com', 'claude.ai', 'console.anthropic.com', 'platform.claude.com', 'statsig.anthropic.com', 'sentry.io', 'downloads.claude.ai'],
  // The API (API key); a ChatGPT account's backend and its sign-in; its update check (0.171 asks
  // api.github.com three times at every start: the sandboxed lane saw it refused).
  codex: ['api.openai.com', 'chatgpt.com', 'auth.openai.com', 'api.github.com'],
  // The API (API key); Google sign-in's Code Assist backend, token refresh and sign-in; usage statistics.
  gemini: ['generativelanguage.googleapis.com', 'cloudcode-pa.googleapis.com', 'oauth2.googleapis.com', 'accounts.google.com', 'play.googleapis.com'],
  // The providers pi talks to most (it has many; others go in config.json).
  pi: ['api.anthropic.com', 'api.openai.com', 'generativelanguage.googleapis.com', 'openrouter.ai'],
};

/** config.json's `sandbox.allowHosts`: `*` for every kind, or a kind's name. */
export type ConfigAllowHosts = Readonly<Record<string, readonly string[]>>;

/** A kind's own hosts and then the registries. */
export function defaultAllowHosts(kind: string): string[] {
  return unique([...(Object.hasOwn(KIND_HOSTS, kind) ? (KIND_HOSTS[kind] ?? []) : []), ...REGISTRY_HOSTS]);
}

/**
 * The allowlist a session of `kind` gets: its kind's defaults, config.json's for every kind and for
 * this kind, the session's own; each entry once (hosts compared without case), in that order.
 */
export function allowHostsFor(kind: string, setting: Pick<SandboxSetting, 'allowHosts'>, config: ConfigAllowHosts | undefined): string[] {
  const fromConfig = (key: string) => (config && Object.hasOwn(config, key) ? (config[key] ?? []) : []);
  return unique([...defaultAllowHosts(kind), ...fromConfig('*'), ...(kind === '*' ? [] : fromConfig(kind)), ...(setting.allowHosts ?? [])]);
}

function unique(hosts: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of hosts) {
    const h = raw.trim().toLowerCase();
    if (h === '' || seen.has(h)) continue;
    seen.add(h);
    out.push(h);
  }
  return out;
}

/**
 * Why an allowlist entry would not match what its writer meant, or null when it is fine: the same
 * rules the proxy applies (srt's), so `--allow-host` and config.json can refuse it with one line
 * instead of a session that silently cannot reach it.
 */
export function allowHostProblem(entry: string): string | null {
  const e = entry.trim();
  if (e === '') return 'an empty host';
  if (e.includes('://') || e.includes('/')) return `${e}: a host, not a URL (drop the scheme and path)`;
  const bracketed = /^\[([0-9a-fA-F:.]+)\](?::(\d+))?$/.exec(e);
  if (bracketed) return portProblem(e, bracketed[2]);
  if ((e.match(/:/g) ?? []).length > 1) return `${e}: an IPv6 address goes in brackets ([::1], [::1]:8080)`;
  const [host = '', port] = e.split(':');
  const p = portProblem(e, port);
  if (p) return p;
  if (host === 'localhost') return null;
  if (host === '*' || host.startsWith('*.')) {
    const labels = host.slice(2).split('.');
    if (labels.length < 2 || labels.some((l) => !LABEL.test(l))) return `${e}: a wildcard needs a domain of two names or more (*.example.com)`;
    return null;
  }
  if (host.includes('*')) return `${e}: a wildcard only as the first name (*.example.com)`;
  const labels = host.split('.');
  if (labels.length < 2 || labels.some((l) => !LABEL.test(l))) return `${e}: not a host name or IP address (example.com, 127.0.0.1:8080)`;
  return null;
}

/** One name of a host (letters, digits, hyphens; an IPv4 literal's numbers pass too). */
const LABEL = /^[a-zA-Z0-9_]([a-zA-Z0-9_-]*[a-zA-Z0-9_])?$/;

function portProblem(entry: string, port: string | undefined): string | null {
  if (port === undefined) return null;
  const n = Number(port);
  return /^[1-9]\d{0,4}$/.test(port) && n <= 65535 ? null : `${entry}: the port must be 1 to 65535`;
}
