/**
 * The words a sandboxed session is shown with (docs/sandbox.md, "Where you see it"): the row's
 * mark, `ls`'s column, the `agent-board new` flags that make the same sandbox, and `explain`'s
 * lines (the backend, the network and its hosts, what the program may write and may not read,
 * the hosts the proxy refused).
 */
import { SANDBOX_DENIALS_KEPT, type SandboxDenial, type SandboxSetting } from './sandbox-types.js';
import { denialLines } from './denials.js';
import { DEFAULT_SANDBOX_NETWORK } from './sandbox-config.js';

/** The row's mark of a sandboxed session (board, web page), after its name: one cell wide. */
export const SANDBOX_MARK = '▣';

/** How many hosts, places and refusals explain names before it says how many more. */
const SHOWN = 4;

/** The `agent-board new` flags that make this sandbox (the network only when it is not the default). */
export function sandboxFlags(s: SandboxSetting): string[] {
  const flags = ['--sandbox'];
  if (s.backend === 'container') flags.push(s.image ? `container:${s.image}` : 'container');
  if (s.network !== DEFAULT_SANDBOX_NETWORK) flags.push('--network', s.network);
  for (const h of s.allowHosts ?? []) flags.push('--allow-host', h);
  for (const p of s.denyRead ?? []) flags.push('--deny-read', p);
  return flags;
}

/** `bwrap/allowlist`, `container/none`: ls's SANDBOX column, one word (the table is split on spaces). */
export function sandboxCell(s: SandboxSetting): string {
  return `${s.backend}/${s.network}`;
}

/** `bwrap, network allowlist` / `container node:22, none`: the web row's title. */
export function sandboxBrief(s: SandboxSetting): string {
  const backend = s.backend === 'container' ? `container${s.image ? ` ${s.image}` : ''}` : 'bwrap';
  return `${backend}, network ${s.network}`;
}

/** `a, b, c, d +3 more` */
function some(items: readonly string[]): string {
  const more = items.length - SHOWN;
  return items.slice(0, SHOWN).join(', ') + (more > 0 ? ` +${more} more (${items.length} in all)` : '');
}

/** The places the sandbox gives the program, as the runner's policy works them out (null: not known here; explain says them in words). */
export interface SandboxPlaces {
  writable: readonly string[];
  hidden: readonly string[];
}

export interface SandboxFacts {
  sandbox?: SandboxSetting;
  sandboxDenied?: SandboxDenial[];
}

/**
 * explain's lines of a sandboxed session (none for one that is not), label and text; `now` for
 * the refused hosts' times.
 * `hosts`: the whole allowlist (the kind's, config.json's and the session's), when known; else
 * the session's own are said beside the kind's. `places`: the paths, when known; else in words.
 */
export function sandboxLines(r: SandboxFacts, now: number, hosts: readonly string[] | null = null, places: SandboxPlaces | null = null): [string, string][] {
  const s = r.sandbox;
  if (!s) return [];
  const lines: [string, string][] = [];
  lines.push(['sandbox', s.backend === 'container' ? `a container (podman or docker)${s.image ? `, image ${s.image}` : ", image from the repository's devcontainer.json"}` : 'bubblewrap: the program and its children inside, the runner outside']);
  if (s.network === 'all') lines.push(['network', "all: the machine's network as it is"]);
  else if (s.network === 'none') lines.push(['network', 'none: no network at all']);
  else {
    lines.push(['network', 'allowlist: only the listed hosts, through a proxy']);
    const own = s.allowHosts ?? [];
    lines.push(['', `  hosts: ${hosts ? some(hosts) : `its kind's own and config.json's${own.length ? `, and ${some(own)}` : ''}`}`]);
  }
  const deny = s.denyRead ?? [];
  lines.push(['writes', places ? some(places.writable) : "its folder, its agent's state folder, its chat room, a private /tmp; nothing else"]);
  // The session's own paths first: the list is cut at the pane's edge.
  lines.push(['hidden', places ? some(places.hidden) : `${deny.length ? `${some(deny)}, ` : ''}~/.ssh, ~/.aws, ~/.gnupg and such, other agents' and sessions' folders, agent-board's home`]);
  // The most recent refusals, a few (the record keeps SANDBOX_DENIALS_KEPT): src/core/sandbox/denials.ts says each.
  const denied = denialLines(r.sandboxDenied, now);
  lines.push(...denied.slice(0, SHOWN));
  const more = denied.length - SHOWN;
  if (more > 0) lines.push(['', `+${more} more${denied.length >= SANDBOX_DENIALS_KEPT ? ` (the ${SANDBOX_DENIALS_KEPT} most recent kept)` : ''}`]);
  if (!denied.length && s.network === 'allowlist') lines.push(['refused', 'no host so far']);
  return lines;
}
