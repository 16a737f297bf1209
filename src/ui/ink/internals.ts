/**
 * The one place the board touches Ink's internals (Ink 6.8.0, pinned exactly in package.json
 * because an internal can change in any release), bar the frame cache (./frame-cache.ts).
 *
 * `inkStyle`: a text styled as <Text> styles it (Ink's build/colorize.js, with Ink's own chalk,
 * so the same colour level), for rows the board builds as whole strings (./list-lines.ts).
 *
 * `useRawInput`: `useStdin().internal_eventEmitter`. Ink hands what it
 * reads from stdin to its useInput handlers through that emitter, an 'input' event per key, escape
 * sequence or run of plain text as its input parser cut them (together, exactly the bytes read; a
 * lone Escape comes a tick later). The board needs those bytes raw in two places: type-through
 * (keys go to a session as typed) and the keys typed after an attach's Enter. Ink's public API,
 * useInput, only gives parsed (input, key) pairs, which cannot be turned back into bytes, and
 * reading process.stdin beside Ink would race its own reader: no public API does this.
 */
import { useStdin } from 'ink';
// Ink's colour helper, by its path (its package exports do not name it), as ./frame-cache.ts imports Output.
import colorize from '../../../node_modules/ink/build/colorize.js';
import { useMemo } from 'react';
import { toDisposable, type Disposable } from '../../core/lifetime.js';

/** The keys Ink read, before its key parser made them into (input, key) pairs. */
export interface RawInput {
  /**
   * `fn` hears every read key as its bytes; `first` puts it ahead of every
   * useInput handler, so it runs before them for the same key. The
   * Disposable stops listening.
   */
  listen(fn: (data: string) => void, opts?: { first?: boolean }): Disposable;
}

/** The raw keys of the Ink app this is rendered in (null when Ink has no stdin emitter). */
export function useRawInput(): RawInput | null {
  const { internal_eventEmitter: emitter } = useStdin();
  return useMemo(() => {
    if (!emitter) return null;
    return {
      listen(fn, opts) {
        if (opts?.first) emitter.prependListener('input', fn);
        else emitter.on('input', fn);
        return toDisposable(() => void emitter.off('input', fn));
      },
    };
  }, [emitter]);
}

/** How a piece of a row looks: <Text>'s props of the same names. */
export interface InkStyle {
  color?: string;
  dimColor?: boolean;
  bold?: boolean;
  inverse?: boolean;
}

/** `text` with the escape sequences <Text {...style}> wraps it in, applied in Text's order (dim, colour, bold, inverse). */
export function inkStyle(text: string, style: InkStyle): string {
  let out = text;
  // colorize takes any of chalk's names: the modifiers are names too.
  if (style.dimColor) out = colorize(out, 'dim', 'foreground');
  if (style.color) out = colorize(out, style.color, 'foreground');
  if (style.bold) out = colorize(out, 'bold', 'foreground');
  if (style.inverse) out = colorize(out, 'inverse', 'foreground');
  return out;
}
