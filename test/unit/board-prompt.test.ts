import { describe, expect, it } from 'vitest';
import { markedSessions, promptSummary } from '../../src/core/board/board-prompt.js';
import type { BoardSession, PromptResult } from '../../src/core/board/board-types.js';
import { emptyBoard, run } from '../helpers/board-model.js';
import { keyModeOf } from '../../src/core/board/board-derived.js';
import type { StatusExplanation } from '../../src/core/agents/status-explain.js';

const S = (name: string, over: Partial<BoardSession> = {}): BoardSession => ({
  id: `id-${name}`, name, agent: 'shell', command: 'bash', args: [], status: 'running', exitCode: null, exitSignal: null, ...over,
});
const a = S('alpha');
const b = S('beta');
const c = S('gamma', { status: 'exited', exitCode: 0 });
const start = () => run(emptyBoard(), { type: 'sessions', sessions: [a, b, c] });
const applied = (s: BoardSession): PromptResult => ({ id: s.id, name: s.name, status: 'applied' });

describe('marks', () => {
  it('Space marks and unmarks the selected row; a mark goes with its session', () => {
    let s = run(start(), { type: 'toggle-mark' }, { type: 'move', by: 2 }, { type: 'toggle-mark' });
    expect(s.marks).toEqual([a.id, c.id]);
    expect(markedSessions(s, s.sessions).map((x) => x.name)).toEqual(['alpha', 'gamma']);
    s = run(s, { type: 'toggle-mark' });
    expect(s.marks).toEqual([a.id]);
    s = run(s, { type: 'sessions', sessions: [b, c] });
    expect(s.marks).toEqual([]);
  });
});

describe('the prompt line', () => {
  it('goes to the marked sessions (in list order), else the selected one; typing edits it', () => {
    const marked = run(start(), { type: 'move', by: 1 }, { type: 'toggle-mark' }, { type: 'move', by: -1 }, { type: 'toggle-mark' }, { type: 'open-prompt' });
    expect(marked.overlay).toMatchObject({ kind: 'prompt', targets: [{ id: a.id, name: 'alpha' }, { id: b.id, name: 'beta' }] });
    const one = run(start(), { type: 'move', by: 1 }, { type: 'open-prompt' }, { type: 'type', text: 'hi there' }, { type: 'delete-back' });
    expect(one.overlay).toMatchObject({ kind: 'prompt', targets: [{ id: b.id }], input: 'hi ther', results: [] });
    expect(keyModeOf(one)).toBe('prompt');
    expect(run(emptyBoard(), { type: 'open-prompt' }).overlay.kind).toBe('none'); // nobody to send to
  });

  it('sending freezes the line into results; each answer fills its row; the last one writes the summary', () => {
    let s = run(start(), { type: 'toggle-mark' }, { type: 'move', by: 1 }, { type: 'toggle-mark' }, { type: 'open-prompt' });
    expect(run(s, { type: 'prompt-sending' })).toBe(s); // an empty line is not sent
    s = run(s, { type: 'type', text: '  fix it ' }, { type: 'prompt-sending' });
    expect(s.overlay).toMatchObject({ sent: 'fix it', input: '', results: [{ name: 'alpha', status: 'sending' }, { name: 'beta', status: 'sending' }] });
    expect(keyModeOf(s)).toBe('results');
    expect(run(s, { type: 'type', text: 'x' })).toBe(s); // no edits once sent
    s = run(s, { type: 'prompt-result', result: applied(a) });
    expect(s.message).toBeNull();
    const again = run(s, { type: 'prompt-result', result: { ...applied(a), status: 'error' } });
    expect(again).toBe(s); // a row is answered once
    s = run(s, { type: 'prompt-result', result: { id: b.id, name: 'beta', status: 'unconfirmed', detail: 'accepted_unknown' } });
    expect(s.message).toEqual({ text: 'prompt sent to 2 sessions: 1 applied, 1 unconfirmed', error: true });
    expect(run(s, { type: 'close' }).overlay.kind).toBe('none');
  });

  it('one session: its name, status and why', () => {
    expect(promptSummary([applied(a)])).toEqual({ text: 'alpha: applied', error: false });
    expect(promptSummary([{ id: a.id, name: 'alpha', status: 'not typed', detail: 'the session exited' }])).toEqual({ text: 'alpha: not typed: the session exited', error: true });
    expect(promptSummary([applied(a), { ...applied(b), status: 'accepted' }])).toEqual({ text: 'prompt sent to 2 sessions: 1 applied, 1 accepted', error: false });
  });
});

describe('explain and type-through', () => {
  const explanation = { activity: 'idle' } as StatusExplanation;

  it('open on a running session only; a late answer for another session is dropped', () => {
    let s = run(start(), { type: 'open-explain' });
    expect(s.overlay).toEqual({ kind: 'explain', id: a.id, name: 'alpha', explanation: null, error: null });
    expect(keyModeOf(s)).toBe('explain');
    expect(run(s, { type: 'explained', id: b.id, explanation })).toBe(s);
    expect(run(s, { type: 'explained', id: a.id, explanation }).overlay).toMatchObject({ explanation });
    expect(run(s, { type: 'explain-failed', id: a.id, message: 'silent' }).overlay).toMatchObject({ error: 'silent' });
    s = run(start(), { type: 'jump', to: 'last' }, { type: 'open-explain' });
    expect(s.overlay.kind).toBe('none');
    expect(s.message?.text).toBe('gamma is not running (exited): e explains it needs its runner');
  });

  it('typing is its own key mode, and ends with a line for that session only', () => {
    const s = run(start(), { type: 'open-typing' });
    expect(s.overlay).toEqual({ kind: 'typing', id: a.id, name: 'alpha' });
    expect(keyModeOf(s)).toBe('type');
    expect(run(s, { type: 'typing-ended', id: b.id, message: 'x' })).toBe(s);
    const back = run(s, { type: 'typing-ended', id: a.id, message: 'alpha exited with code 1', error: true });
    expect(back.overlay.kind).toBe('none');
    expect(back.message).toEqual({ text: 'alpha exited with code 1', error: true });
  });
});
