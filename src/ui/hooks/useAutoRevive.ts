/** config.json autoRevive: the board revives the sessions lost when it starts, without a key, and says so. */
import { useEffect } from 'react';
import { useBoardControl } from '../contexts/ActionsContext.js';
import { useBoardState } from '../contexts/BoardStateContext.js';
import { reviveLost } from '../revive-commands.js';

/** Once, as the board first draws (not again after an attach: run-board asks only the first time). */
export function useAutoRevive(): void {
  const control = useBoardControl();
  const { dispatch, getState, getView } = useBoardState();
  useEffect(() => {
    if (!control.autoRevive) return;
    reviveLost({ ...getView(), getState, dispatch, control }, true);
    // On mount only (the deps are left out on purpose): what is lost later waits for R.
  }, []);
}
