import { useStdin } from 'ink';
import { useMemo } from 'react';

/** The keys Ink read, before its key parser made them into (input, key) pairs. */
export interface RawInput {
  /**
   * `fn` hears every read key as its bytes; `first` puts it ahead of every
   * useInput handler, so it runs before them for the same key. Returns an
   * unsubscribe.
   */
  listen(fn: (data: string) => void, opts?: { first?: boolean }): () => void;
}

/**
 * The one place that touches an Ink internal: Ink 6 hands what it reads from
 * stdin to its useInput handlers through `useStdin().internal_eventEmitter`,
 * an 'input' event per key, escape sequence or run of plain text as its input
 * parser cut them (together, exactly the bytes read; a lone Escape comes a
 * tick later). The board needs those bytes raw in two places: type-through
 * (keys go to a session as typed) and the keys typed after an attach's Enter.
 * useInput only gives parsed keys, which cannot be turned back into bytes.
 */
export function useRawInput(): RawInput | null {
  const { internal_eventEmitter: emitter } = useStdin();
  return useMemo(() => {
    if (!emitter) return null;
    return {
      listen(fn, opts) {
        if (opts?.first) emitter.prependListener('input', fn);
        else emitter.on('input', fn);
        return () => void emitter.off('input', fn);
      },
    };
  }, [emitter]);
}
