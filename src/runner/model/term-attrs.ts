/**
 * xterm's attribute words and character sets, read from its private fields
 * and turned back into SGR and designation sequences (for the snapshot frame).
 */
import { core, type AttrInternals, type Charset, type Terminal } from '../../core/terminal/xterm-internals.js';

// ---------------------------------------------------------------------------
// Attributes

// Bit layout of xterm's attribute words (common/buffer/Constants.ts).
const CM_MASK = 0x3000000;
const CM_P16 = 0x1000000;
const CM_P256 = 0x2000000;
const CM_RGB = 0x3000000;
const RGB_MASK = 0xffffff;
const FG_INVERSE = 0x4000000;
const FG_BOLD = 0x8000000;
const FG_UNDERLINE = 0x10000000;
const FG_BLINK = 0x20000000;
const FG_INVISIBLE = 0x40000000;
const FG_STRIKETHROUGH = 0x80000000;
const BG_ITALIC = 0x4000000;
const BG_DIM = 0x8000000;
export const BG_HAS_EXTENDED = 0x10000000;
export const BG_PROTECTED = 0x20000000;
const BG_OVERLINE = 0x40000000;
const FG_FLAGS = FG_INVERSE | FG_BOLD | FG_UNDERLINE | FG_BLINK | FG_INVISIBLE | FG_STRIKETHROUGH;
const BG_FLAGS = BG_ITALIC | BG_DIM | BG_PROTECTED | BG_OVERLINE;
const EXT_UNDERLINE_SHIFT = 26;

/**
 * What a cell (or the pen) looks like, with the colour bits xterm leaves
 * stale (a palette colour keeps old RGB bits) cleared, so equal looks compare
 * equal.
 */
export interface Attr {
  fg: number;
  bg: number;
  /** Underline style 0-5 (only meaningful with the underline flag). */
  ul: number;
  /** Underline colour, xterm's colour word; 0 is the default. */
  ulColor: number;
  /** Hyperlink (OSC 8) as `params;uri`, '' for none. */
  link: string;
}

export const DEFAULT_ATTR: Attr = { fg: 0, bg: 0, ul: 0, ulColor: 0, link: '' };

export function cleanColor(word: number): number {
  const mode = word & CM_MASK;
  if (mode === CM_P16 || mode === CM_P256) return mode | (word & 0xff);
  if (mode === CM_RGB) return mode | (word & RGB_MASK);
  return 0;
}

export function linkOf(term: Terminal, urlId: number): string {
  if (!urlId) return '';
  const data = core(term)._oscLinkService.getLinkData(urlId);
  if (!data) return '';
  return `${data.id !== undefined ? `id=${data.id}` : ''};${data.uri}`;
}

/**
 * @param pen whether `a` is the pen rather than a cell. A cell's extended
 *   part (underline style and colour, link) counts only when its HAS_EXTENDED
 *   bit says it was stored; the pen's underline colour and link count anyway,
 *   since the next SGR 4 or print takes them up.
 */
export function attrOf(term: Terminal, a: AttrInternals, pen: boolean): Attr {
  const hasExt = (a.bg & BG_HAS_EXTENDED) !== 0;
  const ext = a.extended;
  return {
    fg: (a.fg & FG_FLAGS) | cleanColor(a.fg),
    bg: (a.bg & BG_FLAGS) | cleanColor(a.bg),
    // None without the underline flag; single without a stored style. xterm's
    // DECRC can leave the flag with a stored style of none (it restores the
    // flag, not the style): no SGR makes that, and the program asked for an
    // underline, so it is written as a single one (sgrOf).
    ul: a.fg & FG_UNDERLINE ? (hasExt ? (ext._ext >>> EXT_UNDERLINE_SHIFT) & 7 || 1 : 1) : 0,
    ulColor: pen || hasExt ? cleanColor(ext._ext) : 0,
    link: pen || hasExt ? linkOf(term, ext.urlId) : '',
  };
}

export function sameAttr(a: Attr, b: Attr): boolean {
  return a === b || (a.fg === b.fg && a.bg === b.bg && a.ul === b.ul && a.ulColor === b.ulColor && a.link === b.link);
}

export function colorParams(word: number, base: number, brightBase: number, extended: number): string | null {
  const c = word & RGB_MASK;
  switch (word & CM_MASK) {
    case CM_P16:
      return String(c < 8 ? base + c : brightBase + (c & 7));
    case CM_P256:
      // Kept as 38;5;n even for n < 16: xterm keeps the two apart, so must we.
      return `${extended};5;${c & 0xff}`;
    case CM_RGB:
      return `${extended};2;${(c >>> 16) & 0xff};${(c >>> 8) & 0xff};${c & 0xff}`;
    default:
      return null;
  }
}

/** SGR from a clean slate to `a` (links and DECSCA are handled apart). */
export function sgrOf(a: Attr): string {
  const p = ['0'];
  const fg = colorParams(a.fg, 30, 90, 38);
  if (fg) p.push(fg);
  const bg = colorParams(a.bg, 40, 100, 48);
  if (bg) p.push(bg);
  if (a.fg & FG_BOLD) p.push('1');
  if (a.bg & BG_DIM) p.push('2');
  if (a.bg & BG_ITALIC) p.push('3');
  if (a.fg & FG_UNDERLINE) p.push(a.ul <= 1 ? '4' : `4:${a.ul}`);
  if (a.fg & FG_BLINK) p.push('5');
  if (a.fg & FG_INVERSE) p.push('7');
  if (a.fg & FG_INVISIBLE) p.push('8');
  if (a.fg & FG_STRIKETHROUGH) p.push('9');
  if (a.bg & BG_OVERLINE) p.push('53');
  // Underline colours come only as 58;5;n or 58;2;r;g;b.
  const ulMode = a.ulColor & CM_MASK;
  if (ulMode === CM_RGB) p.push(colorParams(a.ulColor, 0, 0, 58)!);
  else if (ulMode !== 0) p.push(`58;5;${a.ulColor & 0xff}`);
  return `\x1b[${p.join(';')}m`;
}

/** What an erase (ECH, EL, a scroll) leaves in a cell: the pen's background only. */
export function eraseAttrOf(a: Attr): Attr {
  return { fg: 0, bg: cleanColor(a.bg), ul: 0, ulColor: 0, link: '' };
}

export function isEraseAttr(a: Attr): boolean {
  return a.fg === 0 && (a.bg & ~(CM_MASK | RGB_MASK)) === 0 && a.ul === 0 && a.ulColor === 0 && a.link === '';
}

// ---------------------------------------------------------------------------
// Charsets

export const DESIGNATORS = '0AB4C5RQKYE6ZH7=';
let designatorCache: Map<Charset, string> | null = null;

/**
 * Maps xterm's charset tables back to the final byte that designates them,
 * learnt once from a scratch terminal (the tables are shared module objects).
 */
export function designatorOf(term: Terminal, charset: Charset): string {
  if (!designatorCache) {
    designatorCache = new Map();
    // A scratch terminal of the same class as the one being painted (so no import of the package here).
    const Scratch = term.constructor as new (o: { cols: number; rows: number; allowProposedApi: boolean }) => Terminal;
    const scratch = new Scratch({ cols: 10, rows: 2, allowProposedApi: true });
    const c = core(scratch);
    for (const d of DESIGNATORS) {
      c._inputHandler.parse(`\x1b(${d}`);
      const table = c._charsetService._charsets[0];
      if (!designatorCache.has(table)) designatorCache.set(table, d);
    }
    scratch.dispose();
  }
  return designatorCache.get(charset) ?? 'B';
}

export const G_INTERMEDIATE = ['(', ')', '*', '+'];
export const G_SHIFT = ['\x0f', '\x0e', '\x1bn', '\x1bo'];
