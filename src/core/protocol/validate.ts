/** Checks a client's message off the socket, field by field, before the runner acts on it. */
import { isCommandId, readEnvelope, type Envelope } from './control-protocol.js';
import type { ClientMessage, DirectInputRequest, DirectRequest } from './client-messages.js';
import type { ErrorCode } from './runner-messages.js';

export type Validated =
  | { ok: true; message: ClientMessage; envelope?: Envelope }
  | { ok: false; code: ErrorCode; message: string; commandId?: string };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

const bad = (message: string): Validated => ({ ok: false, code: 'invalid_message', message });

/**
 * Checks one decoded frame from a client; unknown extra fields are ignored.
 * A control command may carry an envelope (all five fields, or none: legacy).
 */
export function validateClientMessage(value: unknown): Validated {
  if (!isObject(value)) return bad('a message must be a JSON object');
  const env = readEnvelope(value);
  if (env.kind === 'invalid') {
    return { ok: false, code: 'envelope_invalid', message: env.message, commandId: isCommandId(value.commandId) ? value.commandId : undefined };
  }
  const v = validateBody(value);
  if (!v.ok) return env.kind === 'enveloped' ? { ...v, commandId: env.envelope.commandId } : v;
  if (env.kind === 'legacy') {
    if (v.message.type === 'input' && v.message.durable) return bad('durable input needs an envelope (commandId, clientId, seq, viewId, instanceId)');
    return v;
  }
  return { ...v, envelope: env.envelope };
}

/** A hello offers a few framings; a longer list is a confused client, not a future one. */
const MAX_FRAMINGS = 16;

/** Bounds on a when-idle quiet period: long enough to mean something, short enough to come. */
export const MIN_QUIET_MS = 50;
export const MAX_QUIET_MS = 3_600_000;

function validateBody(value: Record<string, unknown>): Validated {
  const type = value.type;
  if (typeof type !== 'string') return bad('a message needs a string "type"');
  switch (type) {
    case 'hello': {
      if (!isInt(value.protocol)) return bad('hello needs an integer "protocol"');
      if (value.client !== undefined && typeof value.client !== 'string') return bad('hello "client" must be a string');
      if (value.readOnly !== undefined && typeof value.readOnly !== 'boolean') return bad('hello "readOnly" must be a boolean');
      const { framing } = value;
      if (framing !== undefined && !(Array.isArray(framing) && framing.length <= MAX_FRAMINGS && framing.every((f) => typeof f === 'string'))) {
        return bad(`hello "framing" must be a list of at most ${MAX_FRAMINGS} names`);
      }
      return ok({ type, protocol: value.protocol, client: value.client, readOnly: value.readOnly, framing });
    }
    case 'subscribe_terminal': {
      const { sinceSeq, scrollback } = value;
      if (sinceSeq !== undefined && !(isInt(sinceSeq) && sinceSeq >= 0)) return bad('"sinceSeq" must be a whole number');
      if (scrollback !== undefined && !(isInt(scrollback) && scrollback >= 0)) return bad('"scrollback" must be a whole number');
      const { cols, rows } = value;
      if ((cols === undefined) !== (rows === undefined)) return bad('subscribe_terminal needs both "cols" and "rows", or neither');
      if (cols !== undefined && !(isInt(cols) && isInt(rows))) return bad('subscribe_terminal "cols" and "rows" must be integers');
      const direct = value.direct === undefined ? undefined : readDirect(value.direct);
      if (direct === null) return bad('subscribe_terminal "direct" needs "path", "pid", "startTime", "fd", "bootId", "altScreen" and "cut" (and "input" has "fd" and "detachKeys")');
      const { hint } = value;
      if (hint !== undefined && typeof hint !== 'string') return bad('subscribe_terminal "hint" must be a string');
      const sub = { type, sinceSeq, scrollback, ...(direct ? { direct } : {}), ...(hint ? { hint } : {}) };
      return ok(cols === undefined ? sub : { ...sub, cols, rows: rows as number });
    }
    case 'input': {
      if (typeof value.data !== 'string') return bad('input needs a string "data"');
      const { durable, submit, whenIdle, quietMs, overBudget } = value;
      for (const [k, f] of Object.entries({ durable, submit, whenIdle, overBudget })) {
        if (f !== undefined && typeof f !== 'boolean') return bad(`input "${k}" must be a boolean`);
      }
      if (quietMs !== undefined && !(isInt(quietMs) && quietMs >= MIN_QUIET_MS && quietMs <= MAX_QUIET_MS)) {
        return bad(`input "quietMs" must be a whole number of milliseconds from ${MIN_QUIET_MS} to ${MAX_QUIET_MS}`);
      }
      if (!durable) {
        if (submit !== undefined || whenIdle !== undefined || quietMs !== undefined || overBudget !== undefined) return bad('"submit", "whenIdle", "quietMs" and "overBudget" need "durable": true');
        return ok({ type, data: value.data });
      }
      return ok({ type, data: value.data, durable: true, submit: submit === true, whenIdle: whenIdle === true, quietMs: quietMs, ...(overBudget === true ? { overBudget: true } : {}) });
    }
    case 'reconcile': {
      const ids = value.commandIds;
      if (ids !== undefined && !(Array.isArray(ids) && ids.length <= 256 && ids.every(isCommandId))) {
        return bad('reconcile "commandIds" must be a list of at most 256 command ids');
      }
      return ok({ type, commandIds: ids });
    }
    case 'resize':
      if (!isInt(value.cols) || !isInt(value.rows)) return bad('resize needs integer "cols" and "rows"');
      return ok({ type, cols: value.cols, rows: value.rows });
    case 'terminate':
      if (value.signal !== undefined && typeof value.signal !== 'string') return bad('terminate "signal" must be a string');
      return ok({ type, signal: value.signal });
    case 'hook': {
      const { kind, event, sessionId } = value;
      if (typeof kind !== 'string' || typeof event !== 'string' || kind.length > 64 || event.length > 64) return bad('hook needs string "kind" and "event"');
      if (sessionId !== undefined && !(typeof sessionId === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(sessionId))) return bad('hook "sessionId" must be an id');
      return ok({ type, kind, event, sessionId: sessionId });
    }
    case 'rename':
      if (typeof value.name !== 'string') return bad('rename needs a string "name"');
      return ok({ type, name: value.name });
    case 'resume_after_limit': {
      const set = value.set as Record<string, unknown> | null | undefined;
      if (set === null) return ok({ type, set: null });
      const good = typeof set === 'object' && set !== null && typeof set.prompt === 'string' && set.prompt.trim() !== '' && set.prompt.length <= 4096 && isInt(set.perDay) && set.perDay >= 1 && set.perDay <= 100;
      if (!good) return bad('resume_after_limit needs "set": null or {"prompt": text, "perDay": 1-100}');
      return ok({ type, set: { prompt: set.prompt as string, perDay: set.perDay as number } });
    }
    case 'subscribe_status': {
      const view = value.view as Record<string, unknown> | undefined;
      if (view === undefined) return ok({ type });
      if (typeof view !== 'object' || view === null || !isInt(view.cols) || !isInt(view.rows)) return bad('subscribe_status "view" needs integer "cols" and "rows"');
      return ok({ type, view: { cols: view.cols, rows: view.rows } });
    }
    case 'interrupt':
    case 'redraw':
    case 'detach':
    case 'status':
    case 'explain':
      return ok({ type });
    default:
      return { ok: false, code: 'unknown_type', message: `unknown message type "${type.slice(0, 64)}"` };
  }
}

const shortString = (v: unknown, max: number): v is string => typeof v === 'string' && v.length > 0 && v.length <= max;

/** A direct-output request's fields, typed and bounded (what they prove is the runner's business: src/runner/direct/tty-check.ts); null when malformed. */
function readDirect(v: unknown): DirectRequest | null {
  if (!isObject(v)) return null;
  const { path, pid, startTime, fd, bootId, altScreen, cut } = v;
  if (!shortString(path, 64) || !shortString(bootId, 64) || !(typeof startTime === 'string' && /^[0-9]{1,24}$/.test(startTime))) return null;
  if (!(isInt(pid) && pid > 0) || !(isInt(fd) && fd >= 0 && fd < 65536)) return null;
  if (typeof altScreen !== 'boolean' || typeof cut !== 'boolean') return null;
  if (v.input === undefined) return { path, pid, startTime, fd, bootId, altScreen, cut };
  const input = readDirectInput(v.input);
  return input ? { path, pid, startTime, fd, bootId, altScreen, cut, input } : null;
}

/** At most this many detach sequences of at most this many characters (a key has 10: src/core/terminal/detach-key.ts). */
const MAX_DETACH_KEYS = 32;
const MAX_DETACH_KEY_LENGTH = 32;

/** Direct input's fields: the client's input fd and its detach key's sequences (none empty); null when malformed. */
function readDirectInput(v: unknown): DirectInputRequest | null {
  if (!isObject(v)) return null;
  const { fd, detachKeys } = v;
  if (!(isInt(fd) && fd >= 0 && fd < 65536)) return null;
  if (!Array.isArray(detachKeys) || detachKeys.length > MAX_DETACH_KEYS) return null;
  if (!detachKeys.every((k) => shortString(k, MAX_DETACH_KEY_LENGTH))) return null;
  return { fd, detachKeys };
}

function ok(message: ClientMessage): Validated {
  return { ok: true, message };
}
