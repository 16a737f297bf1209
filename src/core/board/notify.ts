/**
 * When the board rings, and what it writes: pure decisions, no I/O.
 *
 * The rule: a session that turns to waiting rings, whatever it was doing (it
 * needs the user: a permission prompt in a turn, or a trust dialog or sign-in
 * menu before its first), so does one that turns limited (its agent hit a
 * usage limit: nothing happens until it resets, docs/usage.md), and a session that turns from busy to idle rings
 * (it finished its turn). Not starting -> idle (nothing was asked of it), and
 * not:
 * - a session the user is attached to (they are looking);
 * - a change the board did not see begin (a session seen for the first time);
 * - a row still marked for the same state (a shell printing every few seconds
 *   rings once, until the user looks);
 * - a program's start-up output: busy -> idle when the session had not been
 *   idle or waiting yet and only its bytes said busy (a shell printing its
 *   prompt). An agent that said itself it was working (hook, title, screen)
 *   still rings when its first turn ends.
 *
 * Besides, a session whose budget reaches 80 %, or is spent, rings once for each (the record's
 * `budgetState`, kept by its runner; docs/usage.md, "Budgets"), whatever its state does.
 */
import type { ActivitySource } from '../agents/activity.js';
import type { SessionState } from '../session-state.js';
import type { NoticeText } from './notice-text.js';

export interface SeenSession {
  id: string;
  name: string;
  state: SessionState;
  /** Where the activity came from (the host record's activitySource). */
  source?: ActivitySource;
  /** The record's budgetState: a budget 80 % used or spent, and the line that says so. */
  budget?: { level: 'warned' | 'over'; line: string };
}

export interface StateChange {
  id: string;
  name: string;
  from: SessionState;
  to: SessionState;
  /** When what rings is the budget (80 % used, or spent), not the state: its level and line. */
  budget?: { level: 'warned' | 'over'; line: string };
}

const BUDGET_RANK = { warned: 1, over: 2 } as const;

/** Anything the board saw -> waiting or limited, and busy -> idle, ring; nothing else does. */
export function ringsFor(from: SessionState | undefined, to: SessionState): boolean {
  if (from === undefined || from === to) return false;
  if (to === 'waiting' || to === 'limited') return from !== 'exited' && from !== 'lost';
  return from === 'busy' && to === 'idle';
}

/**
 * Follows the sessions' states from one look to the next and says which
 * changes ring. Also keeps which rows are still marked (unseen), with the
 * state they were marked for: the board tells it when the user looked.
 */
interface Seen {
  state: SessionState;
  /** It has been idle or waiting: its start-up is over. */
  settled: boolean;
  /** Where the busy it is in came from. */
  busyFrom?: ActivitySource;
  /** The budget level seen last (0: none). */
  budget: number;
}

export class NoticeWatch {
  private states = new Map<string, Seen>();
  private readonly unseen = new Map<string, SessionState>();
  private attachedId: string | null = null;

  /** The session the user is attached to (null: none): its changes are theirs to see, and its mark goes. */
  get attached(): string | null {
    return this.attachedId;
  }
  set attached(id: string | null) {
    this.attachedId = id;
    if (id !== null) this.unseen.delete(id);
  }

  /** The rows the board marks now (the others were looked at). */
  setUnseen(ids: readonly string[]): void {
    const keep = new Set(ids);
    for (const id of [...this.unseen.keys()]) if (!keep.has(id)) this.unseen.delete(id);
    for (const id of ids) if (!this.unseen.has(id)) this.unseen.set(id, this.states.get(id)?.state ?? 'idle');
  }

  get unseenIds(): string[] {
    return [...this.unseen.keys()];
  }

  /** The sessions as they are now; returns the changes that ring (and mark their rows). */
  see(sessions: readonly SeenSession[]): StateChange[] {
    const next = new Map<string, Seen>();
    const out: StateChange[] = [];
    for (const s of sessions) {
      const before = this.states.get(s.id);
      const from = before?.state;
      const busyFrom = s.state !== 'busy' ? undefined : from === 'busy' ? before!.busyFrom : s.source;
      const budget = s.budget ? BUDGET_RANK[s.budget.level] : 0;
      next.set(s.id, { state: s.state, settled: (before?.settled ?? false) || s.state === 'idle' || s.state === 'waiting', busyFrom, budget });
      // A budget that reached a level the board saw it below rings with its line (the first look only remembers).
      if (before && s.budget && budget > before.budget) out.push({ id: s.id, name: s.name, from: before.state, to: s.state, budget: { level: s.budget.level, line: s.budget.line } });
      if (from === s.state || !ringsFor(from, s.state) || s.id === this.attachedId) continue;
      if (s.state === 'idle' && !before!.settled && (before!.busyFrom ?? 'bytes') === 'bytes') continue; // start-up output
      if (this.unseen.get(s.id) === s.state) continue; // still marked for this: rung already
      this.unseen.set(s.id, s.state);
      out.push({ id: s.id, name: s.name, from: from!, to: s.state });
    }
    for (const id of [...this.unseen.keys()]) if (!next.has(id)) this.unseen.delete(id);
    this.states = next;
    return out;
  }
}

// ---- what the terminal gets ----------------------------------------------------

export type Env = Readonly<Record<string, string | undefined>>;

/** The desktop-notification sequence a terminal shows, if any (BEL goes to every terminal). */
export type OscNotify = 'osc9' | 'osc777' | null;

/**
 * Which notification sequence the terminal understands, from its
 * environment. One of them, never both: a terminal that reads both (WezTerm,
 * Ghostty) would show two notifications.
 *
 * - AGENT_BOARD_OSC_NOTIFY=9, 777 or none decides, when set.
 * - Inside tmux or screen (TMUX, STY, TERM screen* or tmux*): none; they drop
 *   these sequences (tmux without passthrough), and turn BEL into their own bell.
 * - OSC 777 (title and body): Ghostty (TERM_PROGRAM=ghostty, TERM=xterm-ghostty),
 *   WezTerm (TERM_PROGRAM=WezTerm), foot (TERM=foot*), rxvt-unicode (TERM=rxvt-unicode*).
 * - OSC 9 (text): iTerm2 (TERM_PROGRAM=iTerm.app, LC_TERMINAL=iTerm2), kitty
 *   (TERM=xterm-kitty, KITTY_WINDOW_ID).
 * - Anything else: none (an unknown OSC could show up as text).
 */
export function oscNotifyFor(env: Env): OscNotify {
  const forced = env.AGENT_BOARD_OSC_NOTIFY?.trim().toLowerCase();
  if (forced) return forced === '9' || forced === 'osc9' ? 'osc9' : forced === '777' || forced === 'osc777' ? 'osc777' : null;
  const term = (env.TERM ?? '').toLowerCase();
  const program = (env.TERM_PROGRAM ?? '').toLowerCase();
  if (env.TMUX || env.STY || program === 'tmux' || /^(screen|tmux)/.test(term)) return null;
  if (program === 'ghostty' || term === 'xterm-ghostty' || program === 'wezterm' || term.startsWith('foot') || term.startsWith('rxvt-unicode')) return 'osc777';
  if (program === 'iterm.app' || env.LC_TERMINAL === 'iTerm2' || term === 'xterm-kitty' || env.KITTY_WINDOW_ID) return 'osc9';
  return null;
}

export const BEL = '\x07';
export const NOTIFY_TITLE = 'agent-board';

/** Text safe inside an OSC string: no control characters (BEL or ESC would end it), no `;` (a field separator). */
function oscText(text: string): string {
  return text.replace(/[\x00-\x1f\x7f-\x9f]/g, ' ').replace(/;/g, ',');
}

/**
 * What the board writes for notices: one BEL, then one notification per
 * notice in the terminal's sequence: OSC 777 with the title and the body as
 * its two fields, or OSC 9 with "agent-board: <title>: <body>" (the prefix
 * keeps it from starting like `9;4`, a progress report). Neither moves the
 * cursor.
 */
export function ringSequence(notices: readonly NoticeText[], osc: OscNotify): string {
  if (notices.length === 0) return '';
  let out = BEL;
  for (const n of notices) {
    const title = oscText(n.title);
    const body = oscText(n.body);
    if (osc === 'osc9') out += `\x1b]9;${NOTIFY_TITLE}: ${title}${body ? `: ${body}` : ''}${BEL}`;
    else if (osc === 'osc777') out += `\x1b]777;notify;${title};${body}${BEL}`;
  }
  return out;
}

/** The environment `--notify-cmd` gets on top of the board's (the text is also its $1 and $2). */
export function notifyCommandEnv(c: StateChange, text: NoticeText): Record<string, string> {
  return {
    AGENT_BOARD_SESSION: c.id,
    AGENT_BOARD_SESSION_NAME: c.name,
    AGENT_BOARD_STATE: c.to,
    AGENT_BOARD_PREVIOUS_STATE: c.from,
    AGENT_BOARD_NOTIFY_TITLE: text.title,
    AGENT_BOARD_NOTIFY_BODY: text.body,
  };
}
