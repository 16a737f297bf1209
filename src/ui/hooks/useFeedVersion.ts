import { useEffect, useState } from 'react';

/** A counter that goes up whenever `source` says it changed: the caller re-renders and reads the source afresh. */
export function useFeedVersion(source: { subscribe(fn: () => void): () => void }): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    const off = source.subscribe(bump);
    bump(); // a change between the first render and the subscription
    return off;
  }, [source]);
  return version;
}
