import { useEffect, useState } from 'react';
import type { Disposable } from '../../core/lifetime.js';

/** A counter that goes up whenever `source` says it changed: the caller re-renders and reads the source afresh. */
export function useFeedVersion(source: { subscribe(fn: () => void): Disposable }): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    const off = source.subscribe(bump);
    bump(); // a change between the first render and the subscription
    return () => off.dispose();
  }, [source]);
  return version;
}
