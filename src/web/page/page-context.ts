/** What every component of the page reads: the model, time, the way to another view. */
import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import type { Clock, Scheduler } from '../../core/clock.js';
import type { Route } from './hash-route.js';
import type { PageModel } from './page-model.js';
import type { PageState } from './page-state.js';

export interface PageEnv {
  model: PageModel;
  clock: Clock;
  scheduler: Scheduler;
  /** Goes to a view (a new history entry, so the browser's back returns). */
  nav: (route: Route) => void;
  /** A phone or tablet: typing starts locked, the key bar shows. */
  touch: boolean;
}

export const PageContext = createContext<PageEnv | null>(null);

export function usePage(): PageEnv {
  const env = useContext(PageContext);
  if (!env) throw new Error('internal: a page component outside PageContext');
  return env;
}

/** The model's state, re-rendered on each change. */
export function usePageState(): PageState {
  const { model } = usePage();
  const [state, setState] = useState(model.state);
  useEffect(() => {
    const d = model.onChange(() => setState(model.state));
    setState(model.state);
    return () => d.dispose();
  }, [model]);
  return state;
}

/** The clock's time, ticking every `ms` (the rows' "time since output" moves every second). */
export function useNow(ms: number): number {
  const { clock, scheduler } = usePage();
  const [now, setNow] = useState(clock.now());
  useEffect(() => {
    const d = scheduler.setInterval(() => setNow(clock.now()), ms);
    return () => d.dispose();
  }, [clock, scheduler, ms]);
  return now;
}
