import { useMemo } from 'react';
import { walkthroughShown } from '../../core/board/walkthrough.js';
import { walkthroughLines } from '../components/DemoWalkthrough.js';
import { useBoardControl } from '../contexts/ActionsContext.js';
import { useBoardState } from '../contexts/BoardStateContext.js';
import { revivable } from '../revive-commands.js';
import { useTerminalSize } from './useTerminalSize.js';

export interface Banners {
  /** Lost sessions (a reboot, a logout): the line above the list offers to revive them (R). */
  lost: number;
  /** The demo's walkthrough, while its sessions are on the board, until h hides it. */
  walkthrough: readonly string[];
}

/** The lines above the list, none over a full-screen view (`fullScreen`) or the new-session form (`form`). */
export function useBanners(fullScreen: boolean, form: boolean): Banners {
  const { state, sessions } = useBoardState();
  const { detachLabel } = useBoardControl();
  const { cols } = useTerminalSize();
  const lost = fullScreen ? 0 : sessions.filter(revivable).length;
  const demoShown = !fullScreen && !form && walkthroughShown(state.walkthroughHidden, sessions);
  const walkthrough = useMemo(() => (demoShown ? walkthroughLines(Math.max(20, cols), detachLabel) : []), [demoShown, cols, detachLabel]);
  return { lost, walkthrough };
}
