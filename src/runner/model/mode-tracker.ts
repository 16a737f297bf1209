/** The modes xterm does not keep, followed on a terminal through parser hooks that let xterm handle every sequence too. */
import {
  INITIAL_MODES,
  onCursorShape,
  onDecPrivateMode,
  onKittyKeyboard,
  onModifyKeys,
  onReset,
  onTitle,
  type TrackedModes,
} from '../../core/terminal/terminal-modes.js';
import type { Terminal } from '../../state/headless-terminal.js';

/** The live value of the modes xterm does not keep, followed on one terminal. */
export interface ModeTracker {
  readonly modes: TrackedModes;
}

/**
 * Registers parser hooks on `term` that follow the modes xterm does not keep.
 * The hooks return false, so xterm still handles every sequence itself. The
 * snapshot property test attaches the same tracking to the terminal it
 * rebuilds from a frame, so both sides are judged alike.
 */
export function trackModes(term: Terminal, onTitleChange?: () => void): ModeTracker {
  const tracker = { modes: INITIAL_MODES };
  const p = term.parser;
  const nums = (params: (number | number[])[]) => params.map((x) => (Array.isArray(x) ? (x[0] ?? 0) : x));
  const track = (fn: (m: TrackedModes) => TrackedModes) => {
    tracker.modes = fn(tracker.modes);
    return false; // let xterm handle the sequence too
  };
  p.registerCsiHandler({ prefix: '?', final: 'h' }, (ps) => track((m) => onDecPrivateMode(m, nums(ps), true)));
  p.registerCsiHandler({ prefix: '?', final: 'l' }, (ps) => track((m) => onDecPrivateMode(m, nums(ps), false)));
  p.registerCsiHandler({ intermediates: ' ', final: 'q' }, (ps) => track((m) => onCursorShape(m, nums(ps))));
  p.registerCsiHandler({ prefix: '>', final: 'u' }, (ps) => track((m) => onKittyKeyboard(m, '>', nums(ps))));
  p.registerCsiHandler({ prefix: '<', final: 'u' }, (ps) => track((m) => onKittyKeyboard(m, '<', nums(ps))));
  p.registerCsiHandler({ prefix: '=', final: 'u' }, (ps) => track((m) => onKittyKeyboard(m, '=', nums(ps))));
  p.registerCsiHandler({ prefix: '>', final: 'm' }, (ps) => track((m) => onModifyKeys(m, 'm', nums(ps))));
  p.registerCsiHandler({ prefix: '>', final: 'n' }, (ps) => track((m) => onModifyKeys(m, 'n', nums(ps))));
  p.registerCsiHandler({ intermediates: '!', final: 'p' }, () => track((m) => onReset(m, false)));
  p.registerEscHandler({ final: 'c' }, () => track((m) => onReset(m, true)));
  // A new title is told at once (the activity tracker reads an agent's busy spinner off it).
  const title = (data: string) => {
    const before = tracker.modes.title;
    track((m) => onTitle(m, data));
    if (tracker.modes.title !== before) onTitleChange?.();
    return false;
  };
  p.registerOscHandler(0, title);
  p.registerOscHandler(2, title);
  return tracker;
}
