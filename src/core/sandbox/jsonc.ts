/**
 * JSON with comments, as devcontainer.json is written (VS Code's "jsonc"): `//` and block
 * comments and trailing commas taken out, outside strings only, then JSON.parse. A `//` inside a
 * string (an image's URL) stays; a string's escaped quote does not end it.
 */

/** The text with its comments blanked (newlines kept, so JSON.parse's positions still point at the right line) and trailing commas dropped. */
export function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === ',') {
      // A comma followed (past blanks and comments) by a closing bracket is a trailing one.
      let j = i + 1;
      for (;;) {
        while (j < text.length && /\s/.test(text.charAt(j))) j++;
        if (text.startsWith('//', j)) while (j < text.length && text[j] !== '\n') j++;
        else if (text.startsWith('/*', j)) {
          const end = text.indexOf('*/', j + 2);
          j = end < 0 ? text.length : end + 2;
        } else break;
      }
      if (text[j] !== '}' && text[j] !== ']') out += c;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

export type JsoncParse = { ok: true; value: unknown } | { ok: false; error: string };

export function parseJsonc(text: string): JsoncParse {
  try {
    return { ok: true, value: JSON.parse(stripJsonComments(text)) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}
