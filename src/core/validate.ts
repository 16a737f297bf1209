import type { ClientMessage, ErrorCode } from './protocol.js';

export type Validated =
  | { ok: true; message: ClientMessage }
  | { ok: false; code: ErrorCode; message: string };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

const bad = (message: string): Validated => ({ ok: false, code: 'invalid_message', message });

/** Checks one decoded frame from a client; unknown extra fields are ignored. */
export function validateClientMessage(value: unknown): Validated {
  if (!isObject(value)) return bad('a message must be a JSON object');
  const type = value.type;
  if (typeof type !== 'string') return bad('a message needs a string "type"');
  switch (type) {
    case 'hello': {
      if (!isInt(value.protocol)) return bad('hello needs an integer "protocol"');
      if (value.client !== undefined && typeof value.client !== 'string') return bad('hello "client" must be a string');
      if (value.readOnly !== undefined && typeof value.readOnly !== 'boolean') return bad('hello "readOnly" must be a boolean');
      return ok({ type, protocol: value.protocol, client: value.client as string | undefined, readOnly: value.readOnly as boolean | undefined });
    }
    case 'subscribe_terminal': {
      const { sinceSeq, scrollback } = value;
      if (sinceSeq !== undefined && !(isInt(sinceSeq) && sinceSeq >= 0)) return bad('"sinceSeq" must be a whole number');
      if (scrollback !== undefined && !(isInt(scrollback) && scrollback >= 0)) return bad('"scrollback" must be a whole number');
      return ok({ type, sinceSeq: sinceSeq as number | undefined, scrollback: scrollback as number | undefined });
    }
    case 'input':
      if (typeof value.data !== 'string') return bad('input needs a string "data"');
      return ok({ type, data: value.data });
    case 'resize':
      if (!isInt(value.cols) || !isInt(value.rows)) return bad('resize needs integer "cols" and "rows"');
      return ok({ type, cols: value.cols, rows: value.rows });
    case 'terminate':
      if (value.signal !== undefined && typeof value.signal !== 'string') return bad('terminate "signal" must be a string');
      return ok({ type, signal: value.signal as string | undefined });
    case 'rename':
      if (typeof value.name !== 'string') return bad('rename needs a string "name"');
      return ok({ type, name: value.name });
    case 'interrupt':
    case 'redraw':
    case 'subscribe_status':
    case 'detach':
    case 'status':
      return ok({ type });
    default:
      return { ok: false, code: 'unknown_type', message: `unknown message type "${type.slice(0, 64)}"` };
  }
}

function ok(message: ClientMessage): Validated {
  return { ok: true, message };
}
