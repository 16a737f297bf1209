/** The session list's columns: their widths, shared by every row (src/ui/ink/list-lines.ts draws a row in them). */
import { useMemo } from 'react';
import { agentLabel } from '../core/agents/agent-kinds.js';

/** Column widths shared by every row of the list. */
export interface RowColumns {
  width: number;
  name: number;
  /** The agent column: `shell` or `shell › claude` (an agent running in a shell session). */
  agent: number;
  /** The state column: STATUS, or LIMITED_STATUS while a row counts down to a limit's reset. */
  status: number;
  /** The host column (the board's --host: `local` or the machine); 0 with this machine's sessions alone. */
  host: number;
  /** The tokens and cost column (the `u` key): its width, 0 when hidden. */
  usage: number;
}
const AGENT = 7;
const AGENT_MAX = 16;
export const STATUS = 10;
/** The state column while a row is limited: `limited · 2h13m`. */
const LIMITED_STATUS = 15;
export const TIME = 4;
const HOST_MAX = 16;
/** The usage column: `12.3k $123.45+?` fits. */
export const USAGE = 16;
/** What the host column says of this machine's rows. */
export const LOCAL_HOST = 'local';
/** The marker run: the selection's (or the attention's) mark, the pick, the glyph and a space. */
export const MARKER = 4;
/** Marker and mark, glyph, the gaps between columns (the agent column's width apart). */
export const FIXED = MARKER + 1 + STATUS + 1 + TIME + 2 + 1;

/** The mark of a row the user marked (Space) for the prompt line, and its colour. */
export const PICK_MARK = '*';
export const PICK_COLOR = 'cyan';

/** A sandboxed session's mark after its name (SANDBOX_MARK): a space and the mark, in the name column. */
export const SANDBOX_MARK_CELLS = 2;
export const SANDBOX_COLOR = 'green';

type ColumnSource = readonly { name: string; agent: string; foregroundAgent?: string; host?: string; status?: string; limited?: unknown; sandbox?: unknown }[];

/**
 * Name column: as wide as the longest name, between 8 and 20 (less on a
 * narrow list); agent column: 7, wider (up to 16) for a `shell › claude`;
 * state column: 10, 15 while a row is limited (its countdown);
 * host column: none while every row is this machine's, else as wide as the
 * longest host (`local` at least, 16 at most).
 */
export function rowColumns(sessions: ColumnSource, width: number, hostsOf: ColumnSource = sessions, usageShown = false): RowColumns {
  const longest = sessions.reduce((m, s) => Math.max(m, s.name.length + (s.sandbox ? SANDBOX_MARK_CELLS : 0)), 0);
  const agent = Math.max(AGENT, Math.min(AGENT_MAX, sessions.reduce((m, s) => Math.max(m, agentLabel(s).length), 0)));
  const hosts = hostsOf.reduce((m, s) => (s.host ? Math.max(m, s.host.length) : m), 0);
  const host = hosts > 0 ? Math.min(HOST_MAX, Math.max(LOCAL_HOST.length, hosts)) : 0;
  // A limited row's countdown widens the state column (of a running session: an exited one says how it ended).
  const status = sessions.some((s) => s.limited && s.status === 'running') ? LIMITED_STATUS : STATUS;
  const name = Math.max(8, Math.min(20, longest, width - FIXED - (status - STATUS) - agent - (host ? host + 1 : 0) - 8));
  return { width, name, agent, host, status, usage: usageShown ? USAGE : 0 };
}

/** rowColumns, the same object for as long as the widths are the same (a row is built again when its columns change). */
export function useRowColumns(sessions: ColumnSource, width: number, hostsOf: ColumnSource = sessions, usageShown = false): RowColumns {
  const c = rowColumns(sessions, width, hostsOf, usageShown);
  return useMemo(() => c, [c.width, c.name, c.agent, c.host, c.status, c.usage]);
}
