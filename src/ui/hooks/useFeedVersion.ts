import { useEffect, useState } from 'react';
import type { Event } from '../../core/lifetime.js';

/** A counter that goes up whenever `changed` fires: the caller re-renders and reads its source afresh. */
export function useFeedVersion(changed: Event<void>): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    const off = changed(bump);
    bump(); // a change between the first render and the listening
    return () => off.dispose();
  }, [changed]);
  return version;
}
