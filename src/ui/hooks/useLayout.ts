import { useLayoutEffect } from 'react';
import { visibleSessions } from '../../core/board/board-derived.js';
import { useBoardState } from '../contexts/BoardStateContext.js';
import { boardLayout, type BoardLayout } from '../layout.js';
import { useTerminalSize } from './useTerminalSize.js';

/**
 * The layout for the terminal's size (less `bannerRows` above the body), with the list's height told to the state (for scrolling),
 * in the commit that draws it (a layout effect), so a key read right after the draw pages by it.
 */
export function useLayout(bannerRows = 0): BoardLayout {
  const { cols, rows } = useTerminalSize();
  const { state, sessions, dispatch } = useBoardState();
  const layout = boardLayout(cols, rows, visibleSessions(state, sessions).length, bannerRows);
  useLayoutEffect(() => {
    dispatch({ type: 'viewport', rows: layout.listRows });
  }, [layout.listRows, dispatch]);
  return layout;
}
