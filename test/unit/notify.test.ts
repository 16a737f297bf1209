import { describe, expect, it } from 'vitest';
import { NoticeWatch, notifyCommandEnv, oscNotifyFor, ringSequence, ringsFor, type SeenSession } from '../../src/core/board/notify.js';
import { SESSION_STATES, type SessionState } from '../../src/core/session-state.js';
import type { ActivitySource } from '../../src/core/agents/activity.js';

describe('ringsFor: the transition rule', () => {
  it('busy -> waiting and busy -> idle ring; so does waiting after starting or idle (a dialog before the first turn)', () => {
    expect(ringsFor('busy', 'waiting')).toBe(true);
    expect(ringsFor('busy', 'idle')).toBe(true);
    expect(ringsFor('starting', 'waiting')).toBe(true);
    expect(ringsFor('idle', 'waiting')).toBe(true);
  });

  it('nothing else does', () => {
    const ringing = [];
    for (const from of [undefined, ...SESSION_STATES]) {
      for (const to of SESSION_STATES) if (ringsFor(from, to)) ringing.push(`${from}->${to}`);
    }
    expect(ringing.sort()).toEqual([
      'busy->idle', 'busy->limited', 'busy->waiting', 'idle->limited', 'idle->waiting', 'limited->waiting',
      'starting->limited', 'starting->waiting', 'waiting->limited',
    ]);
    expect(ringsFor('limited', 'idle')).toBe(false);
    expect(ringsFor('starting', 'idle')).toBe(false);
    expect(ringsFor('waiting', 'waiting')).toBe(false);
    expect(ringsFor('busy', 'exited')).toBe(false);
    expect(ringsFor(undefined, 'waiting')).toBe(false);
  });
});

describe('NoticeWatch', () => {
  const S = (id: string, state: SessionState, source?: ActivitySource): SeenSession => ({ id, name: `n-${id}`, state, source });
  const rung = (w: NoticeWatch, ...list: SeenSession[]) => w.see(list).map((c) => `${c.id}:${c.from}->${c.to}`);
  /** A watch that has seen these sessions settle at their prompt, then go busy (from their bytes). */
  const working = (...ids: string[]) => {
    const w = new NoticeWatch();
    rung(w, ...ids.map((id) => S(id, 'idle')));
    rung(w, ...ids.map((id) => S(id, 'busy', 'bytes')));
    return w;
  };

  it('the first look only remembers: a session seen waiting for the first time does not ring', () => {
    const w = new NoticeWatch();
    expect(rung(w, S('a', 'waiting'), S('b', 'idle'))).toEqual([]);
  });

  it('rings busy -> waiting and busy -> idle, with names and both states', () => {
    const w = working('a', 'b');
    expect(w.see([S('a', 'waiting'), S('b', 'idle')])).toEqual([
      { id: 'a', name: 'n-a', from: 'busy', to: 'waiting' },
      { id: 'b', name: 'n-b', from: 'busy', to: 'idle' },
    ]);
    expect(w.unseenIds).toEqual(['a', 'b']);
  });

  it('starting -> idle does not ring, nor does a shell settling after its start-up output (busy from bytes only)', () => {
    const w = new NoticeWatch();
    rung(w, S('a', 'starting'), S('sh', 'starting'));
    expect(rung(w, S('a', 'idle'), S('sh', 'busy', 'bytes'))).toEqual([]);
    expect(rung(w, S('a', 'idle'), S('sh', 'idle', 'bytes'))).toEqual([]);
    // Settled now: its next burst of output rings when it ends.
    rung(w, S('a', 'idle'), S('sh', 'busy', 'bytes'));
    expect(rung(w, S('a', 'idle'), S('sh', 'idle', 'bytes'))).toEqual(['sh:busy->idle']);
    // The board opened while a shell printed: not seen settle, not rung either.
    const late = new NoticeWatch();
    rung(late, S('sh', 'busy', 'bytes'));
    expect(rung(late, S('sh', 'idle', 'bytes'))).toEqual([]);
  });

  it('an agent that said itself it was working rings at the end of its first turn; needing the user rings from the start', () => {
    const w = new NoticeWatch();
    rung(w, S('claude', 'starting'), S('gemini', 'starting'), S('pi', 'starting'));
    rung(w, S('claude', 'busy', 'title'), S('gemini', 'busy', 'hook'), S('pi', 'busy', 'bytes'));
    // A later reading of the same busy from a lesser source does not change where it came from.
    rung(w, S('claude', 'busy', 'bytes'), S('gemini', 'busy', 'hook'), S('pi', 'busy', 'bytes'));
    expect(rung(w, S('claude', 'idle', 'title'), S('gemini', 'idle', 'hook'), S('pi', 'waiting', 'screen'))).toEqual([
      'claude:busy->idle',
      'gemini:busy->idle',
      'pi:busy->waiting',
    ]);
  });

  it('an agent that needs the user before its first turn (trust dialog, sign-in) rings; one first seen waiting does not', () => {
    const w = new NoticeWatch();
    rung(w, S('claude', 'starting'), S('codex', 'idle', 'screen'));
    expect(rung(w, S('claude', 'waiting', 'screen'), S('codex', 'waiting', 'screen'))).toEqual(['claude:starting->waiting', 'codex:idle->waiting']);
    expect(rung(w, S('claude', 'waiting', 'screen'), S('codex', 'waiting', 'screen'), S('gemini', 'waiting', 'screen'))).toEqual([]);
    // Out of the dialog and into a turn, and done: that rings too.
    rung(w, S('claude', 'busy', 'hook'));
    expect(rung(w, S('claude', 'idle', 'hook'))).toEqual(['claude:busy->idle']);
  });

  it('waiting -> waiting does not ring twice; a row still marked for idle does not ring for idle again', () => {
    const w = working('a');
    expect(rung(w, S('a', 'waiting'))).toEqual(['a:busy->waiting']);
    expect(rung(w, S('a', 'waiting'))).toEqual([]);
    const shell = working('s');
    expect(rung(shell, S('s', 'idle'))).toEqual(['s:busy->idle']);
    // A shell printing every few seconds: busy, idle, busy, idle... rings once until the user looks.
    for (let i = 0; i < 3; i++) {
      expect(rung(shell, S('s', 'busy', 'bytes'))).toEqual([]);
      expect(rung(shell, S('s', 'idle'))).toEqual([]);
    }
    // Marked for idle, then it needs the user: that rings.
    rung(shell, S('s', 'busy', 'bytes'));
    expect(rung(shell, S('s', 'waiting'))).toEqual(['s:busy->waiting']);
  });

  it('rings again once the user looked (the board no longer marks the row)', () => {
    const w = working('a', 'b');
    rung(w, S('a', 'idle'), S('b', 'idle'));
    w.setUnseen(['b']);
    rung(w, S('a', 'busy'), S('b', 'busy'));
    expect(rung(w, S('a', 'idle'), S('b', 'idle'))).toEqual(['a:busy->idle']);
  });

  it('never rings for the session the user is attached to, and attaching clears its mark', () => {
    const w = working('a', 'b');
    rung(w, S('a', 'idle'), S('b', 'busy'));
    expect(w.unseenIds).toEqual(['a']);
    w.attached = 'a';
    expect(w.unseenIds).toEqual([]);
    rung(w, S('a', 'busy'), S('b', 'busy'));
    expect(rung(w, S('a', 'waiting'), S('b', 'waiting'))).toEqual(['b:busy->waiting']);
    // Back on the board: it went idle while looked at; the next turn rings.
    w.attached = null;
    rung(w, S('a', 'busy'), S('b', 'waiting'));
    expect(rung(w, S('a', 'idle'), S('b', 'waiting'))).toEqual(['a:busy->idle']);
  });

  it('forgets sessions that went away', () => {
    const w = working('a');
    rung(w, S('a', 'idle'));
    expect(w.unseenIds).toEqual(['a']);
    rung(w);
    expect(w.unseenIds).toEqual([]);
    expect(rung(w, S('a', 'idle'))).toEqual([]); // back: seen for the first time
  });

  it('setUnseen takes marks the board has that it did not ring for here', () => {
    const w = working('a');
    rung(w, S('a', 'idle'));
    w.setUnseen([]);
    w.setUnseen(['a']);
    expect(w.unseenIds).toEqual(['a']);
    rung(w, S('a', 'busy'));
    expect(rung(w, S('a', 'idle'))).toEqual([]); // marked for idle already
  });
});

describe('oscNotifyFor: which notification the terminal shows', () => {
  it.each([
    [{ TERM_PROGRAM: 'iTerm.app', TERM: 'xterm-256color' }, 'osc9'],
    [{ LC_TERMINAL: 'iTerm2', TERM: 'xterm-256color' }, 'osc9'],
    [{ TERM: 'xterm-kitty' }, 'osc9'],
    [{ KITTY_WINDOW_ID: '1', TERM: 'xterm-256color' }, 'osc9'],
    [{ TERM_PROGRAM: 'WezTerm', TERM: 'xterm-256color' }, 'osc777'],
    [{ TERM_PROGRAM: 'ghostty', TERM: 'xterm-ghostty' }, 'osc777'],
    [{ TERM: 'xterm-ghostty' }, 'osc777'],
    [{ TERM: 'foot' }, 'osc777'],
    [{ TERM: 'foot-extra' }, 'osc777'],
    [{ TERM: 'rxvt-unicode-256color' }, 'osc777'],
  ] as const)('%o: %s', (env, want) => {
    expect(oscNotifyFor(env)).toBe(want);
  });

  it.each([
    [{ TERM: 'xterm-256color' }],
    [{ TERM_PROGRAM: 'Apple_Terminal', TERM: 'xterm-256color' }],
    [{ TERM_PROGRAM: 'vscode', TERM: 'xterm-256color' }],
    [{ WT_SESSION: 'x', TERM: 'xterm-256color' }],
    [{}],
    // tmux and screen drop them (and pass BEL on as their own bell), whatever is outside.
    [{ TERM_PROGRAM: 'tmux', TERM: 'tmux-256color' }],
    [{ TMUX: '/tmp/tmux-1/default,1,0', TERM_PROGRAM: 'iTerm.app', TERM: 'xterm-256color' }],
    [{ TERM: 'screen-256color', LC_TERMINAL: 'iTerm2' }],
    [{ STY: '1.pts', TERM: 'xterm-kitty' }],
  ])('%o: none (BEL only)', (env) => {
    expect(oscNotifyFor(env)).toBeNull();
  });

  it('AGENT_BOARD_OSC_NOTIFY decides when set (inside tmux with passthrough, say)', () => {
    expect(oscNotifyFor({ AGENT_BOARD_OSC_NOTIFY: '777', TMUX: 'x' })).toBe('osc777');
    expect(oscNotifyFor({ AGENT_BOARD_OSC_NOTIFY: '9', TERM: 'xterm' })).toBe('osc9');
    expect(oscNotifyFor({ AGENT_BOARD_OSC_NOTIFY: 'none', TERM_PROGRAM: 'iTerm.app' })).toBeNull();
    expect(oscNotifyFor({ AGENT_BOARD_OSC_NOTIFY: '', TERM_PROGRAM: 'iTerm.app' })).toBe('osc9');
  });
});

describe('ringSequence', () => {
  const waiting = { title: 'api needs you', body: 'Do you want to proceed? 1. Yes 2. No' };
  const idle = { title: 'web is done', body: 'All 12 tests passed' };

  it('always one BEL, then one notification per notice in the terminal sequence: OSC 777 title and body, OSC 9 both in one text', () => {
    expect(ringSequence([waiting], null)).toBe('\x07');
    expect(ringSequence([waiting], 'osc9')).toBe('\x07\x1b]9;agent-board: api needs you: Do you want to proceed? 1. Yes 2. No\x07');
    expect(ringSequence([waiting, idle], 'osc777')).toBe(
      '\x07\x1b]777;notify;api needs you;Do you want to proceed? 1. Yes 2. No\x07\x1b]777;notify;web is done;All 12 tests passed\x07',
    );
    expect(ringSequence([], 'osc9')).toBe('');
  });

  it('a notice without a body: OSC 9 says the title alone, OSC 777 an empty body', () => {
    expect(ringSequence([{ title: 'api is done', body: '' }], 'osc9')).toBe('\x07\x1b]9;agent-board: api is done\x07');
    expect(ringSequence([{ title: 'api is done', body: '' }], 'osc777')).toBe('\x07\x1b]777;notify;api is done;\x07');
  });

  it('keeps control characters and field separators out of the OSC', () => {
    const seq = ringSequence([{ title: 'a;b\x07c\x1bd is done', body: 'x;y\x1b]z' }], 'osc777');
    expect(seq).toBe('\x07\x1b]777;notify;a,b c d is done;x,y ]z\x07');
  });
});

describe('notifyCommandEnv', () => {
  it('names the session, both states and the notice', () => {
    expect(notifyCommandEnv({ id: 'a1b2c3d4', name: 'api', from: 'busy', to: 'waiting' }, { title: 'api needs you', body: 'Proceed? 1. Yes 2. No' })).toEqual({
      AGENT_BOARD_SESSION: 'a1b2c3d4',
      AGENT_BOARD_SESSION_NAME: 'api',
      AGENT_BOARD_STATE: 'waiting',
      AGENT_BOARD_PREVIOUS_STATE: 'busy',
      AGENT_BOARD_NOTIFY_TITLE: 'api needs you',
      AGENT_BOARD_NOTIFY_BODY: 'Proceed? 1. Yes 2. No',
    });
  });
});
