/**
 * What a notification says, the same on every channel (the terminal's OSC 777 / OSC 9,
 * `--notify-cmd`, Web Push, ntfy): a title that says who and what, and a body that says why.
 * The rule of when one is sent is src/core/board/notify.ts; the screen is read by the client
 * (src/client/notify/). Pure: the change and what is known of its screen in, the text out.
 */
import type { DialogText } from '../agents/dialog-text.js';
import type { HostRecord } from '../protocol/host-record.js';
import type { SessionState } from '../session-state.js';
import { resetClock } from '../usage/limit-state.js';

export interface NoticeText {
  /** "<name> needs you", "<name> is done" or "<name> hit its usage limit". */
  title: string;
  /** The question and its options, or the session's last line; '' when nothing is known. */
  body: string;
}

/**
 * A body longer than this is cut (with an ellipsis): a phone shows a few lines, Web Push
 * payloads are bounded (about 4 KB after encryption), and a notification is a pointer to the
 * session, not a copy of its screen.
 */
export const NOTICE_BODY_MAX = 300;

/** "Do you want to proceed? 1. Yes 2. No": the question, then each option with its digit, on one line. */
export function dialogLine(d: DialogText): string {
  const options = d.options.map((o) => `${o.number}. ${o.label}`).join(' ');
  return d.question ? `${d.question} ${options}` : options;
}

/** Runs of white space (a screen's padding, a tab) as one space, trimmed, cut to NOTICE_BODY_MAX. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= NOTICE_BODY_MAX ? flat : `${flat.slice(0, NOTICE_BODY_MAX - 1).trimEnd()}…`;
}

/**
 * The text for a session that turned `to` (or whose budget rang: its line): waiting says the
 * question it asks (its dialog, when one was read off its screen), else its last line; done (idle)
 * says its last line; limited says until when (`now` on the reader's clock: a reset more than a
 * day ahead says its date) and the agent's own words.
 */
export function noticeText(
  c: { name: string; to: SessionState; budget?: { level: 'warned' | 'over'; line: string } },
  seen: { dialog?: DialogText | null; lastLine?: string; limited?: HostRecord['limited']; now?: number },
): NoticeText {
  // A budget's notice: "<name> used 80 % of its budget ($4.00 of $5.00)", and what a spent one means for prompts.
  if (c.budget) return { title: c.budget.line, body: c.budget.level === 'over' ? 'new prompts are held until the budget is raised' : '' };
  if (c.to === 'limited') {
    const l = seen.limited;
    const until = l?.resetAt ? `until ${resetClock(l.resetAt, seen.now ?? Date.parse(l.since))}` : 'until it resets (it did not say when)';
    return { title: `${c.name} hit its usage limit`, body: oneLine(l?.line ? `${until}: ${l.line}` : until) };
  }
  const waiting = c.to === 'waiting';
  const title = waiting ? `${c.name} needs you` : `${c.name} is done`;
  const body = waiting && seen.dialog ? dialogLine(seen.dialog) : (seen.lastLine ?? '');
  return { title, body: oneLine(body) };
}
