/**
 * Where a session's usage is read from, and how: its kind's transcript (findTranscript) and that
 * kind's reader (USAGE_READERS), for the runner's keeper and for `agent-board usage` alike.
 */
import path from 'node:path';
import { PLAIN_USAGE_READER } from '../../core/usage/plain-reader.js';
import { USAGE_READERS } from '../../core/usage/readers/index.js';
import type { UsageReader } from '../../core/usage/usage-types.js';
import { findTranscript } from './transcript-find.js';

export interface UsageSource {
  file: string;
  reader: UsageReader;
}

/** What is known of a session that says where its transcript is. */
export interface UsageSubject {
  id: string;
  /** The agent kind (a shell session's foreground agent, when it has one). */
  kind: string;
  resumeId?: string;
  cwd: string;
  env: Record<string, string | undefined>;
}

/**
 * Test and bench only: a folder where `<session id>.jsonl` holds agent-board's own usage lines
 * (src/core/usage/plain-reader.ts), read in place of a vendor's transcript.
 */
const TEST_DIR_ENV = 'AGENT_BOARD_TEST_USAGE_DIR';

/**
 * The environment a session's transcript is looked for in: the program's (where its kind keeps its
 * files: CLAUDE_CONFIG_DIR, CODEX_HOME, ...), with the runner's own test knob, which the program's
 * environment never carries (src/core/agents/session-env.ts keeps AGENT_BOARD_TEST_* to the runner).
 */
export function usageEnv(programEnv: Record<string, string | undefined>, runnerEnv: Record<string, string | undefined>): Record<string, string | undefined> {
  return runnerEnv[TEST_DIR_ENV] ? { ...programEnv, [TEST_DIR_ENV]: runnerEnv[TEST_DIR_ENV] } : programEnv;
}

/** Whether the kind has a reader at all: a session of a kind with none has no usage to keep. */
export function hasUsageReader(kind: string, env: Record<string, string | undefined>): boolean {
  return Boolean(env[TEST_DIR_ENV]) || USAGE_READERS[kind] !== undefined;
}

/** The session's transcript and its reader, or null: no reader for its kind, no conversation id yet, or no file found. */
export function findUsageSource(s: UsageSubject): UsageSource | null {
  const testDir = s.env[TEST_DIR_ENV];
  if (testDir) return { file: path.join(testDir, `${s.id}.jsonl`), reader: PLAIN_USAGE_READER };
  const reader = USAGE_READERS[s.kind];
  if (!reader || !s.resumeId) return null;
  const file = findTranscript({ kind: s.kind, resumeId: s.resumeId, cwd: s.cwd, env: s.env });
  return file ? { file, reader } : null;
}
