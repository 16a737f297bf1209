import { walkthroughShown } from '../core/board/walkthrough.js';
import type { CommandContext } from './command-context.js';

/**
 * h: the demo's walkthrough line goes, and the home remembers (it does not come back, after an
 * attach or on another board). Only while it shows: h means nothing else on the list.
 */
export function hideWalkthrough(c: CommandContext): void {
  if (!walkthroughShown(c.state.walkthroughHidden, c.sessions)) return;
  c.dispatch({ type: 'hide-walkthrough' });
  try {
    c.control.rememberWalkthroughHidden?.();
    c.dispatch({ type: 'message', text: 'the demo line is hidden for good; agent-board demo --stop ends the demo' });
  } catch (err) {
    const why = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    c.dispatch({ type: 'message', text: `demo line hidden here; the home could not remember it: ${why}`, error: true });
  }
}
