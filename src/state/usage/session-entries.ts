/**
 * A session's messages read from its transcript in full, for `agent-board usage` (which groups
 * them by day, so it needs the messages, not the runner's totals): through the same tail and
 * reader as the runner's keeper.
 */
import fs from 'node:fs';
import { USAGE_READERS } from '../../core/usage/readers/index.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import type { UsageEntry } from '../../core/usage/usage-types.js';
import { TranscriptTail } from './transcript-tail.js';
import { findUsageSource, type UsageSource } from './usage-source.js';

export type SessionRead =
  | { file: string; entries: UsageEntry[]; skipped: number; firstSkip?: string }
  | { noTranscript: string };

/** Where the session's transcript is: found now, or else the file its runner last read (host.json `usage.file`). */
function sourceOf(s: HostRecord, env: Record<string, string | undefined>): UsageSource | null {
  const found = findUsageSource({ id: s.id, kind: s.agent, resumeId: s.resumeId, cwd: s.cwd, env: { ...env, ...s.env } });
  if (found) return found;
  const reader = USAGE_READERS[s.agent];
  return reader && s.usage?.file && fs.existsSync(s.usage.file) ? { file: s.usage.file, reader } : null;
}

export function readSessionEntries(s: HostRecord, env: Record<string, string | undefined>): SessionRead {
  const source = sourceOf(s, env);
  if (!source) return { noTranscript: 'no transcript' };
  const r = new TranscriptTail(source.file, source.reader).read();
  if (r.error) return { noTranscript: r.error === 'ENOENT' ? 'no transcript' : `cannot read ${source.file} (${r.error})` };
  return { file: source.file, entries: r.entries, skipped: r.skipped, firstSkip: r.firstSkip };
}
