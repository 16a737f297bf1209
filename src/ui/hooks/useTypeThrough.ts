import { useEffect, useLayoutEffect, useRef, type MutableRefObject } from 'react';
import { findDetachKey } from '../../core/terminal/detach-key.js';
import { useBoardControl } from '../contexts/ActionsContext.js';
import { useBoardState } from '../contexts/BoardStateContext.js';
import { useNoticesSource } from '../contexts/NoticesContext.js';
import { useRawInput } from '../ink/internals.js';

/**
 * Type-through (`i`): while the board types into a session, every key Ink
 * reads goes to it as its raw bytes (escape sequences, Enter, Ctrl keys: what
 * a parsed key could not give back), up to the detach key; keys after the
 * detach key in the same read are the board's again (`pressText`). The
 * listener runs ahead of useInput's and sets `handled` for the key it took,
 * so the board's own key handler leaves that key alone.
 */
export function useTypeThrough(handled: MutableRefObject<boolean>, pressText: (text: string) => void): (data: string) => void {
  const { state, dispatch, getState, getView } = useBoardState();
  const control = useBoardControl();
  const raw = useRawInput();
  const notices = useNoticesSource();
  const press = useRef(pressText);
  press.current = pressText;
  const typingId = state.overlay.kind === 'typing' ? state.overlay.id : null;

  // While typing: the keys connection to the session, and the way back when it ends (the program exited, the runner went).
  // The user is looking at it, as in an attach: its turns ending do not ring. A layout
  // effect: it runs in the commit that draws the typing bar, before any feed change can ring.
  useLayoutEffect(() => {
    if (!typingId) return;
    const view = getView().sessions.find((s) => s.id === typingId);
    if (!view) {
      dispatch({ type: 'typing-ended', id: typingId, message: 'that session is gone', error: true });
      return;
    }
    notices.attached?.(typingId);
    const off = control.keys.to(view).onEnd((message) => dispatch({ type: 'typing-ended', id: typingId, message, error: true }));
    return () => {
      off.dispose();
      notices.attached?.(null);
    };
  }, [typingId, getView, control, dispatch, notices]);

  /** Keys read while typing through: the session's up to the detach key, the board's after it. */
  const typeInto = useRef<(data: string) => void>(() => undefined);
  typeInto.current = (data: string) => {
    const o = getState().overlay;
    if (o.kind !== 'typing') return;
    const hit = findDetachKey(control.detachKey, data);
    const keys = hit ? data.slice(0, hit.index) : data;
    const view = getView().sessions.find((s) => s.id === o.id);
    if (view && keys) control.keys.to(view).write(keys);
    if (!hit) return;
    dispatch({ type: 'typing-ended', id: o.id, message: `stopped typing into ${o.name}` });
    const rest = data.slice(hit.index + hit.length);
    if (rest) press.current(rest);
  };

  useEffect(() => {
    if (!raw) return;
    const listening = raw.listen(
      (data) => {
        handled.current = false;
        if (getState().overlay.kind !== 'typing' || control.hasLeft()) return;
        handled.current = true;
        typeInto.current(data);
      },
      { first: true },
    );
    return () => listening.dispose();
  }, [raw, handled, getState, control]);

  return (data) => typeInto.current(data);
}
