/**
 * What the board does, as ActionsContext hands it to the hooks: BoardActions, the keys
 * connection, the detach key, and the board's leave (to attach or quit), with the keys that
 * come after it.
 */
import { useApp } from 'ink';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { BoardView, NewFields } from '../core/board/board-types.js';
import type { DetachKey } from '../core/terminal/detach-key.js';
import type { BoardActions } from '../client/feed/board-api.js';
import { SessionKeys } from '../client/board-actions/session-keys.js';
import type { SessionView } from '../state/host-store.js';
import { ActionsContext, type BoardControl, type LeaveRequest } from './contexts/ActionsContext.js';
import { useBoardState } from './contexts/BoardStateContext.js';
import { useTime } from './contexts/TimeContext.js';
import { useRawInput } from './ink/internals.js';

export interface BoardControlProps {
  actions: BoardActions;
  newDefaults: NewFields;
  detachLabel: string;
  detachKey: DetachKey;
  autoRevive?: boolean;
  rememberWalkthroughHidden?(): void;
  /** The board is done (Ink exits right after): `view`, what to come back to; `typeahead`, keys typed after the Enter that attaches. */
  onLeave(req: LeaveRequest, view: BoardView<SessionView>, typeahead: string): void;
  onLeaving?(req: LeaveRequest): void;
  children: ReactNode;
}

export function BoardControlProvider({ actions, newDefaults, detachLabel, detachKey, autoRevive, rememberWalkthroughHidden, onLeave, onLeaving, children }: BoardControlProps) {
  const { getView } = useBoardState();
  const time = useTime();
  const { exit } = useApp();
  const rawInput = useRawInput();
  const left = useRef(false);
  const typed = useRef('');
  // The keys connection lives as long as this rendering of the board.
  const keys = useMemo(() => new SessionKeys((s) => actions.openInput(s)), [actions]);
  useEffect(() => () => keys.dispose(), [keys]);
  const [leaving, setLeaving] = useState<LeaveRequest | null>(null);
  const control = useMemo<BoardControl>(
    () => ({
      actions,
      newDefaults,
      detachLabel,
      detachKey,
      keys,
      autoRevive,
      rememberWalkthroughHidden,
      hasLeft: () => left.current,
      typeahead(raw) {
        typed.current += raw;
      },
      leave(req: LeaveRequest) {
        if (left.current) return;
        left.current = true;
        onLeaving?.(req);
        // Ink is still handing out what it read with this key: keep it for the
        // session (raw, as Ink's parser cut it), and go once it is through.
        const keep = (raw: string) => {
          typed.current += raw;
        };
        const stop = rawInput?.listen(keep);
        // One tick, and it always runs (the board is leaving): nothing to hold on to.
        time.scheduler.setTimeout(() => {
          stop?.dispose();
          if (req.kind === 'attach') {
            // The attach clears the screen: Ink's last frame of the whole board (drawn again
            // as it unmounts) would only delay it, so the board draws nothing first and goes
            // once that is committed (the layout effect below).
            setLeaving(req);
            return;
          }
          onLeave(req, getView(), '');
          exit();
        }, 0);
      },
    }),
    [actions, time, newDefaults, detachLabel, detachKey, keys, autoRevive, rememberWalkthroughHidden, onLeave, onLeaving, exit, rawInput, getView],
  );
  useLayoutEffect(() => {
    if (!leaving) return;
    onLeave(leaving, getView(), typed.current);
    exit();
  }, [leaving, onLeave, exit, getView]);
  return <ActionsContext.Provider value={control}>{leaving ? null : children}</ActionsContext.Provider>;
}
