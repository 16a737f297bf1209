/**
 * What each page message needs and who handles it: one table, as tmux's command table and the
 * runner's own (src/runner/control/message-table.ts). The gate is checked once, here, for every
 * frame; a frame that fails it gets one `error` frame and counts as a bad frame (./bad-frames.ts);
 * nothing after the gate checks again.
 */
import { sessionState } from '../../../core/session-state.js';
import type { PageMessage } from '../../../core/web/web-protocol.js';
import type { SessionView } from '../../../state/host-store.js';
import type { WebDevice } from '../web-types.js';

export interface PageHandlers {
  open(m: Msg<'open'>, s: SessionView): void;
  closeTerminal(m: Msg<'close'>): void;
  keys(m: Msg<'keys'>, s: SessionView): void;
  resize(m: Msg<'resize'>, s: SessionView): void;
  send(m: Msg<'send'>): void;
  answer(m: Msg<'answer'>, s: SessionView): void;
  diff(m: Msg<'diff'>, s: SessionView): void;
  comment(m: Msg<'comment'>, s: SessionView): void;
  room(m: Msg<'room'>): void;
  post(m: Msg<'post'>): void;
  subscribe(m: Msg<'subscribe'>): void;
  mute(m: Msg<'mute'>, s: SessionView): void;
  quiet(m: Msg<'quiet'>): void;
}

type Msg<K extends PageMessage['t']> = Extract<PageMessage, { t: K }>;

interface Need {
  /** `known`: the frame's `id` is a session on the list; `running`: one whose program runs (or starts). */
  session: 'none' | 'known' | 'running';
  /** The device may type: a read-only device is refused (the runner would refuse its keys too). */
  types: boolean;
}

/** The one table: what each message needs. `send` checks each of its targets itself (each gets its own `sent`). */
export const PAGE_MESSAGE_NEEDS: { readonly [K in PageMessage['t']]: Need } = {
  open: { session: 'running', types: false },
  close: { session: 'none', types: false },
  keys: { session: 'running', types: true },
  resize: { session: 'running', types: true },
  send: { session: 'none', types: true },
  answer: { session: 'running', types: true },
  diff: { session: 'known', types: false },
  comment: { session: 'running', types: true },
  room: { session: 'none', types: false },
  post: { session: 'none', types: true },
  subscribe: { session: 'none', types: false },
  mute: { session: 'known', types: false },
  quiet: { session: 'none', types: false },
};

export type Gate = { ok: true; session: SessionView | null } | { ok: false; line: string };

/** Whether `m` may be handled for `device`, and the session it names. */
export function gatePageMessage(m: PageMessage, device: WebDevice, find: (id: string) => SessionView | undefined): Gate {
  const need = PAGE_MESSAGE_NEEDS[m.t];
  if (need.types && device.readOnly) return { ok: false, line: `${m.t}: this device is read-only (pair it again without --read-only to type)` };
  if (need.session === 'none' || !('id' in m)) return { ok: true, session: null };
  const s = find(m.id);
  if (!s) return { ok: false, line: `${m.t}: no session ${JSON.stringify(m.id.slice(0, 80))}` };
  if (need.session === 'running' && s.status !== 'running' && s.status !== 'starting') return { ok: false, line: `${m.t}: ${s.name} is ${sessionState(s)}` };
  return { ok: true, session: s };
}

/** Hands a message that passed its gate to its handler. */
export function dispatchPageMessage(h: PageHandlers, m: PageMessage, s: SessionView | null): void {
  // The gate found the session for every message whose row needs one.
  const session = s as SessionView;
  switch (m.t) {
    case 'open':
      return h.open(m, session);
    case 'close':
      return h.closeTerminal(m);
    case 'keys':
      return h.keys(m, session);
    case 'resize':
      return h.resize(m, session);
    case 'send':
      return h.send(m);
    case 'answer':
      return h.answer(m, session);
    case 'diff':
      return h.diff(m, session);
    case 'comment':
      return h.comment(m, session);
    case 'room':
      return h.room(m);
    case 'post':
      return h.post(m);
    case 'subscribe':
      return h.subscribe(m);
    case 'mute':
      return h.mute(m, session);
    case 'quiet':
      return h.quiet(m);
  }
}
