/**
 * `--notify ntfy:<topic-url>`: the same notices to an ntfy topic (https://ntfy.sh or a server of
 * one's own), for people who already get their phone's notifications that way. One POST per
 * notice: the body is the message, the title and the rest go in ntfy's headers.
 */
import type { NoticeText } from '../../../core/board/notice-text.js';

/** The most one POST may take: a topic server that hangs must not pile up requests. */
export const NTFY_TIMEOUT_MS = 10_000;

/** The topic URL of `ntfy:<url>` (http or https), or why not. */
export function parseNtfyTarget(spec: string): { ok: true; url: string } | { ok: false; message: string } {
  const m = /^ntfy:(.+)$/.exec(spec.trim());
  if (!m) return { ok: false, message: `--notify takes ntfy:<topic-url> (got ${JSON.stringify(spec)})` };
  let url: URL;
  try {
    url = new URL(m[1]!);
  } catch {
    return { ok: false, message: `--notify ntfy: ${JSON.stringify(m[1])} is not a URL (e.g. ntfy:https://ntfy.sh/my-topic)` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, message: `--notify ntfy: the topic URL must be http or https (got ${url.protocol})` };
  if (url.pathname.length <= 1) return { ok: false, message: `--notify ntfy: the URL names no topic (e.g. ntfy:https://ntfy.sh/my-topic)` };
  return { ok: true, url: url.href };
}

/**
 * A header value as ntfy reads it: ASCII as it is, anything else as an RFC 2047 encoded word
 * (ntfy decodes `=?UTF-8?B?...?=`; fetch refuses header values that are not bytes).
 */
export function ntfyHeader(value: string): string {
  const flat = value.replace(/[\r\n]+/g, ' ');
  return /^[\x20-\x7e]*$/.test(flat) ? flat : `=?UTF-8?B?${Buffer.from(flat, 'utf8').toString('base64')}?=`;
}

export interface NtfyNotice extends NoticeText {
  waiting: boolean;
  /** Where a tap goes (the web page's session URL), when the server knows its own address. */
  click?: string;
}

/** POSTs one notice to the topic; rejects with a line that says why (the caller logs it). */
export async function sendNtfy(url: string, n: NtfyNotice): Promise<void> {
  const headers: Record<string, string> = {
    Title: ntfyHeader(n.title),
    Tags: n.waiting ? 'warning' : 'white_check_mark',
    Priority: n.waiting ? 'high' : 'default',
  };
  if (n.click) headers.Click = n.click;
  const res = await fetch(url, { method: 'POST', headers, body: n.body || n.title, signal: AbortSignal.timeout(NTFY_TIMEOUT_MS) });
  if (!res.ok) throw new Error(`ntfy answered ${res.status} ${res.statusText}`.trim());
  await res.arrayBuffer(); // read to the end: the connection goes back to the pool
}
