/**
 * The one place the board touches an Ink internal, `useStdin().internal_eventEmitter` (Ink 6.8.0,
 * pinned exactly in package.json because an internal can change in any release). Ink hands what it
 * reads from stdin to its useInput handlers through that emitter, an 'input' event per key, escape
 * sequence or run of plain text as its input parser cut them (together, exactly the bytes read; a
 * lone Escape comes a tick later). The board needs those bytes raw in two places: type-through
 * (keys go to a session as typed) and the keys typed after an attach's Enter. Ink's public API,
 * useInput, only gives parsed (input, key) pairs, which cannot be turned back into bytes, and
 * reading process.stdin beside Ink would race its own reader: no public API does this.
 */
import { useStdin } from 'ink';
import { useMemo } from 'react';
import { toDisposable, type Disposable } from '../core/lifetime.js';

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
