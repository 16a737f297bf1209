/** The board's keyboard: Ink's keys through the binding table into commands. */
import { useInput, type Key } from 'ink';
import { useRef } from 'react';
import { keyModeOf } from '../../core/board/board-derived.js';
import { matchKey, splitKeys, textOf, TEXT_MODES, type KeyPress } from '../../core/board/keybindings.js';
import { runCommand } from '../commands.js';
import { useBoardControl } from '../contexts/ActionsContext.js';
import { useBoardState } from '../contexts/BoardStateContext.js';
import { useTypeThrough } from './useTypeThrough.js';

const NAMED: (keyof Key)[] = ['upArrow', 'downArrow', 'leftArrow', 'rightArrow', 'pageUp', 'pageDown', 'home', 'end', 'return', 'escape', 'tab', 'backspace', 'delete'];

/** A control character alone, or a run of text between them. */
const UNITS = /[\x00-\x1f\x7f]|[^\x00-\x1f\x7f]+/g;

/**
 * Ink's keys, through the binding table, into commands; unbound printable keys
 * type into an open field. Ink hands over a run of plain characters as one
 * input (keys typed faster than the board read them: "jj", "x" then "y", or a
 * paste): they are taken one key at a time, except that text goes into an
 * open field whole. Once a key has made the board leave, the rest is not for
 * the board: after an attach's Enter it goes to the session. While the board
 * types into a session (useTypeThrough), keys are not the board's at all.
 */
export function useBoardKeys(): void {
  const { dispatch, getState, getView } = useBoardState();
  const control = useBoardControl();
  const handledRaw = useRef(false);
  const press = (input: string, key: KeyPress) => {
    // Each key sees the state the keys before it left, rendered or not.
    const { state, sessions } = getView();
    const mode = keyModeOf(state);
    if (mode === 'type') return;
    const cmd = matchKey(mode, input, key);
    if (cmd) runCommand(cmd, { state, sessions, getState, dispatch, control }, input);
    else if (TEXT_MODES.has(mode)) {
      const text = textOf(input, key);
      if (text) dispatch({ type: 'type', text });
    }
  };
  /** A run of plain keys, one at a time (text whole into an open field). */
  const pressRun = (input: string) => {
    const units = input.match(UNITS) ?? [];
    for (let i = 0; i < units.length; i++) {
      const unit = units[i]!;
      const mode = keyModeOf(getState());
      if (unit.length > 1 && TEXT_MODES.has(mode)) {
        dispatch({ type: 'type', text: unit });
        continue;
      }
      const chars = Array.from(unit);
      for (let j = 0; j < chars.length; j++) {
        if (control.hasLeft()) return control.typeahead(chars.slice(j).join('') + units.slice(i + 1).join(''));
        // A key that starts type-through makes the rest of the run the session's.
        if (keyModeOf(getState()) === 'type') return typeInto(chars.slice(j).join('') + units.slice(i + 1).join(''));
        const [[ch, k]] = splitKeys(chars[j]!) as [[string, KeyPress]];
        press(ch, k);
      }
    }
  };
  const typeInto = useTypeThrough(handledRaw, pressRun);
  useInput((input, key) => {
    if (handledRaw.current) return; // typed through to a session
    if (control.hasLeft()) return; // the board keeps these raw for the session
    const plainRun = input.length > 1 && !NAMED.some((n) => key[n]);
    if (!plainRun) return press(input, key);
    pressRun(input);
  });
}
