/**
 * The connections a `--network allowlist` sandbox's proxy refused, as host.json keeps them
 * (`sandboxDenied`) and `explain` shows them: one entry per host and port, with how often, first
 * and last. The runner merges each refusal in as it comes (src/runner/sandbox/network-proxy.ts
 * reports them); the list keeps the SANDBOX_DENIALS_KEPT most recent, so a program that tries a
 * thousand hosts cannot grow the record without end.
 */
import { when } from '../agents/explain-text.js';
import { SANDBOX_DENIALS_KEPT, type SandboxDenial } from './sandbox-types.js';

/**
 * The list with one more refusal of `host:port` at `at` (ISO): its entry counted and moved last,
 * or a new one; ordered by last refusal, oldest first, the oldest dropped past the limit.
 */
export function mergeDenial(list: readonly SandboxDenial[] | undefined, host: string, port: number, at: string): SandboxDenial[] {
  const before = list ?? [];
  const same = before.find((d) => d.host === host && d.port === port);
  const rest = before.filter((d) => d !== same);
  const merged: SandboxDenial = same ? { ...same, count: same.count + 1, last: at } : { host, port, count: 1, first: at, last: at };
  return [...rest, merged].slice(-SANDBOX_DENIALS_KEPT);
}

/** `github.com:443 ×3, last 12:03:10 (5s ago)`: one refused host as explain says it (`×n` only past one). */
export function denialText(d: SandboxDenial, now: number): string {
  return `${d.host}:${d.port}${d.count > 1 ? ` ×${d.count}` : ''}, last ${when(Date.parse(d.last), now)}`;
}

/** explain's lines for the refused hosts, the most recent first, labelled `refused` (none: no lines). */
export function denialLines(list: readonly SandboxDenial[] | undefined, now: number): [string, string][] {
  return [...(list ?? [])].reverse().map((d, i) => [i === 0 ? 'refused' : '', denialText(d, now)]);
}
