/**
 * What `send` says on stdout: what was typed where, in one line that fits the terminal (80
 * columns off one), starting with the status and a colon, so a script can read the first word;
 * `--json` gives a script everything, the whole command id included.
 */
import type { SendOutcome } from '../client/send/durable-send.js';

/** The session a prompt went to, as known once it was found (locally) or connected to (over --host). */
export interface SendTarget {
  name: string;
  id?: string;
  host?: string;
}

export interface SentText {
  text: string;
  /** Enter pressed after it (not --no-enter). */
  enter: boolean;
  whenIdle: boolean;
}

/** The status word(s) a line starts with. */
const STATUS: Record<SendOutcome['status'], string> = { applied: 'applied', accepted: 'accepted', unconfirmed: 'unconfirmed', not_typed: 'not typed' };

/** The shown part of a command id: enough to tell two apart (`--json` has it whole). */
const SHORT_ID = 8;

/** `applied: typed "fix the failing test" (+ Enter) into api; command 3f2a0c1e…`, with the text cut to fit `width`. */
export function sendLine(o: SendOutcome, sent: SentText, to: SendTarget, width: number): string {
  const where = to.host ? `${to.name} on ${to.host}` : to.name;
  const enter = sent.enter ? ' (+ Enter)' : '';
  const what = (quoted: string): string => {
    switch (o.status) {
      case 'applied':
        return `typed ${quoted}${enter} into ${where}`;
      case 'accepted':
        return sent.whenIdle ? `queued ${quoted}${enter} in ${where} until quiet` : `journaled ${quoted}${enter} in ${where}, not typed yet`;
      case 'unconfirmed':
        return `maybe typed ${quoted}${enter} into ${where}`;
      case 'not_typed':
        return `${quoted}${enter} into ${where}`;
    }
  };
  const line = (quoted: string) => `${STATUS[o.status]}: ${what(quoted)}; command ${o.commandId.slice(0, SHORT_ID)}${o.commandId.length > SHORT_ID ? '…' : ''}`;
  return line(quoted(sent.text, width - line('').length));
}

/** `--json`: one object on one line. */
export function sendJson(o: SendOutcome, to: SendTarget): string {
  return JSON.stringify({
    status: o.status,
    commandId: o.commandId,
    session: to.id ?? null,
    name: to.name,
    ...(to.host ? { host: to.host } : {}),
    ...('message' in o ? { message: o.message } : {}),
  });
}

/**
 * The text quoted as a JSON string (a newline or an escape shows as \n or \u001b: one line, and
 * nothing the terminal would act on), cut with … to at most `room` characters; `"…"` at the least.
 */
function quoted(text: string, room: number): string {
  const whole = JSON.stringify(text);
  if (whole.length <= room) return whole;
  const chars = [...text];
  const fits = (n: number) => JSON.stringify(chars.slice(0, n).join('')).length + 1 <= room;
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return `${JSON.stringify(chars.slice(0, lo).join('')).slice(0, -1)}…"`;
}
