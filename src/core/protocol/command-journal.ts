/**
 * The durable command journal's records and policies, pure. The runner keeps
 * one `control-journal.jsonl` per session (src/runner/control/journal.ts): a record
 * is appended and synced before a durable command is accepted, and another
 * once it is applied. After a restart, what was accepted and never applied is
 * `accepted_unknown`: it may or may not have reached the program, so it is
 * reported and never replayed.
 */
import type { CommandStatus } from './control-protocol.js';

export const JOURNAL_VERSION = 1;
/** Compaction starts once the file holds more records than this... */
export const JOURNAL_GC_HIGH = 512;
/** ...and keeps this many of the newest (plus every unresolved command's own records). */
export const JOURNAL_GC_KEEP = 256;
/** How much of a prompt the journal keeps, to tell a user which one was ambiguous. */
export const JOURNAL_PREVIEW_CHARS = 80;

/** What was accepted: enough to recognise it, not the whole prompt. */
export interface JournaledCommand {
  type: 'input';
  /** Characters of the prompt. */
  length: number;
  preview: string;
  submit: boolean;
  whenIdle: boolean;
}

export type JournalRecord =
  | { v: 1; kind: 'accepted'; commandId: string; clientId: string; generation: string; at: string; command: JournaledCommand }
  | { v: 1; kind: 'applied'; commandId: string; generation: string; at: string }
  | { v: 1; kind: 'failed'; commandId: string; generation: string; at: string; reason: string };

export function describeInput(data: string, submit: boolean, whenIdle: boolean): JournaledCommand {
  return { type: 'input', length: data.length, preview: data.slice(0, JOURNAL_PREVIEW_CHARS), submit, whenIdle };
}

/** Reads one line of the journal; a torn or foreign line is skipped, never fatal. */
export function parseJournalLine(line: string): JournalRecord | null {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const r = v as Record<string, unknown>;
  if (r.v !== JOURNAL_VERSION || typeof r.commandId !== 'string' || typeof r.generation !== 'string') return null;
  if (r.kind === 'accepted' && typeof r.command === 'object' && r.command !== null) return r as unknown as JournalRecord;
  if (r.kind === 'applied' || r.kind === 'failed') return r as unknown as JournalRecord;
  return null;
}

export interface CommandState {
  commandId: string;
  generation: string;
  status: CommandStatus;
  command?: JournaledCommand;
}

/**
 * Folds records into each command's status as seen by the runner instance
 * `generation`: accepted by it and not applied is `accepted` (in hand);
 * accepted by an earlier instance and not applied is `accepted_unknown`.
 * Map order is the order commands were first accepted.
 */
export function foldJournal(records: readonly JournalRecord[], generation: string): Map<string, CommandState> {
  const states = new Map<string, CommandState>();
  for (const r of records) {
    if (r.kind === 'accepted') {
      states.set(r.commandId, {
        commandId: r.commandId,
        generation: r.generation,
        status: r.generation === generation ? 'accepted' : 'accepted_unknown',
        command: r.command,
      });
      continue;
    }
    const s = states.get(r.commandId);
    if (s) s.status = r.kind === 'applied' ? 'applied' : 'failed';
    else states.set(r.commandId, { commandId: r.commandId, generation: r.generation, status: r.kind === 'applied' ? 'applied' : 'failed' });
  }
  return states;
}

export const isUnresolved = (s: CommandState) => s.status === 'accepted' || s.status === 'accepted_unknown';

export const needsCompaction = (recordCount: number) => recordCount > JOURNAL_GC_HIGH;

/**
 * The records to keep when compacting: the newest JOURNAL_GC_KEEP, widened
 * so a kept command keeps all its records, plus every record of an unresolved
 * command however old (forgetting one would turn `accepted_unknown` into
 * `unknown`, which a client may safely resend: a double-typed prompt). Order is kept.
 */
export function compactJournal(records: readonly JournalRecord[], keep = JOURNAL_GC_KEEP): JournalRecord[] {
  if (records.length <= keep) return [...records];
  const states = foldJournal(records, '');
  const kept = new Set<string>();
  for (const r of records.slice(records.length - keep)) kept.add(r.commandId);
  for (const s of states.values()) if (isUnresolved(s)) kept.add(s.commandId);
  return records.filter((r) => kept.has(r.commandId));
}
