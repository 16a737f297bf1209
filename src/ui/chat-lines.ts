/**
 * Chat records as the pane's screen lines: `#id hh:mm from: text`, wrapped
 * at spaces to the pane's width (a word longer than a line is cut), later
 * lines indented, each line a run of styled segments: the id and time dim,
 * the sender by kind, mentions highlighted, system records apart.
 */
import { blankCode, type ChatRecord } from '../core/chat/chat.js';
import { cellWidth } from './text-width.js';

export type ChatStyle = 'meta' | 'human' | 'agent' | 'system' | 'text' | 'mention';

export interface ChatSegment {
  text: string;
  style: ChatStyle;
}

export interface ChatLine {
  key: string;
  segments: ChatSegment[];
}

interface Cell {
  ch: string;
  w: number;
  style: ChatStyle;
}

/** Continuation lines start this far in (less on a very narrow pane). */
const INDENT = 4;

const pad = (n: number) => String(n).padStart(2, '0');

/** hh:mm, local time, as `agent-board chat read` prints it. */
export function chatTime(ts: string): string {
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? '--:--' : `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Control characters in caret notation (^[), so a post cannot drive the terminal. */
function visible(text: string): string {
  return text.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x20 ? `^${String.fromCharCode(code + 64)}` : code === 0x7f ? '^?' : '?';
  });
}

const NAME_CHAR = /[A-Za-z0-9_-]/;
const isNameChar = (c: string | undefined) => c !== undefined && (NAME_CHAR.test(c) || c === '.');

/** Where `line` mentions one of `mentions` (@name, any case), judged on `blank` (the line with its code blanked). */
export function mentionSpans(blank: string, mentions: readonly string[]): [number, number][] {
  const names = mentions.map((m) => m.toLowerCase()).sort((a, b) => b.length - a.length);
  const spans: [number, number][] = [];
  for (let at = blank.indexOf('@'); at >= 0; at = blank.indexOf('@', at + 1)) {
    if (isNameChar(blank[at - 1])) continue;
    const rest = blank.slice(at + 1);
    const lower = rest.toLowerCase();
    const name = names.find((n) => {
      if (!lower.startsWith(n)) return false;
      const next = rest[n.length];
      return next === undefined || (next === '.' ? !isNameChar(rest[n.length + 1]) : !NAME_CHAR.test(next));
    });
    if (name !== undefined) spans.push([at, at + 1 + name.length]);
  }
  return spans;
}

function cells(text: string, style: ChatStyle): Cell[] {
  return Array.from(visible(text), (ch) => ({ ch, w: cellWidth(ch.codePointAt(0)!), style }));
}

/** One line of the text as cells, its mentions marked (not in a system record). */
function bodyCells(line: string, blank: string, r: ChatRecord): Cell[] {
  const base: ChatStyle = r.kind === 'system' ? 'system' : 'text';
  if (r.kind === 'system' || r.mentions.length === 0) return cells(line, base);
  const out: Cell[] = [];
  let from = 0;
  for (const [a, b] of mentionSpans(blank, r.mentions)) {
    out.push(...cells(line.slice(from, a), base), ...cells(line.slice(a, b), 'mention'));
    from = b;
  }
  return out.concat(cells(line.slice(from), base));
}

const spaces = (n: number): Cell[] => Array.from({ length: n }, () => ({ ch: ' ', w: 1, style: 'text' }));

/**
 * Breaks `first` (the head or an indent) and `body` into rows of `width`,
 * at the last space where it can; later rows start with `indent` spaces.
 * The leading spaces of a row are never a place to break.
 */
function wrap(first: Cell[], body: Cell[], width: number, indent: number): Cell[][] {
  const rows: Cell[][] = [];
  let row: Cell[] = [];
  let w = 0;
  let lastSpace = -1;
  const firstLead = leadOf(first);
  for (const c of [...first, ...body]) {
    const lead = rows.length ? indent : firstLead;
    if (w + c.w > width && row.length > lead) {
      let carry: Cell[] = [];
      if (c.ch !== ' ' && lastSpace >= 0) {
        carry = row.slice(lastSpace + 1);
        row = row.slice(0, lastSpace);
      }
      rows.push(row);
      row = [...spaces(indent), ...carry];
      w = row.reduce((n, x) => n + x.w, 0);
      lastSpace = -1;
      if (c.ch === ' ') continue; // the space at a break goes
    }
    if (c.ch === ' ' && row.length >= lead) lastSpace = row.length;
    row.push(c);
    w += c.w;
  }
  rows.push(row);
  return rows;
}

/** How many of a row's first cells are indentation. */
function leadOf(first: Cell[]): number {
  let n = 0;
  while (first[n]?.ch === ' ') n++;
  return n;
}

function segments(row: Cell[]): ChatSegment[] {
  const out: ChatSegment[] = [];
  for (const c of row) {
    const last = out[out.length - 1];
    if (last && last.style === c.style) last.text += c.ch;
    else out.push({ text: c.ch, style: c.style });
  }
  return out.length ? out : [{ text: ' ', style: 'text' }];
}

/** One record's rows at `width` cells. */
export function recordLines(r: ChatRecord, width: number): ChatLine[] {
  const w = Math.max(1, width);
  const indent = Math.min(INDENT, Math.floor(w / 4));
  const text = r.text.replace(/\r\n/g, '\n').replace(/\t/g, '    ');
  const blanks = blankCode(text).split('\n');
  const head = [...cells(`#${r.id} ${chatTime(r.ts)} `, 'meta'), ...cells(r.from, r.kind), ...cells(': ', r.kind === 'system' ? 'system' : 'text')];
  const rows = text.split('\n').flatMap((line, i) => {
    const body = bodyCells(line, blanks[i] ?? line, r);
    return wrap(i === 0 ? head : spaces(indent), body, w, indent);
  });
  return rows.map((row, i) => ({ key: `${r.id}.${i}`, segments: segments(row) }));
}

/** Every record's rows, oldest first. */
export function chatLines(records: readonly ChatRecord[], width: number): ChatLine[] {
  return records.flatMap((r) => recordLines(r, width));
}
