import { describe, expect, it } from 'vitest';
import type { ActivityReading } from '../../src/core/agents/activity.js';
import { decideActivity, OVERRULE_AFTER_MS } from '../../src/core/agents/activity-layers.js';

const r = (source: ActivityReading['source'], activity: ActivityReading['activity'], at: number): ActivityReading => ({ source, activity, at });
const pick = (...rs: ActivityReading[]) => {
  const d = decideActivity(rs);
  return d ? { ...d.reading, rule: d.rule } : null;
};

describe('decideActivity', () => {
  it('best-source: the best layer that has spoken wins while the others agree or lag', () => {
    expect(pick(r('title', 'idle', 0), r('hook', 'busy', 100), r('screen', 'idle', 200))).toEqual({ ...r('hook', 'busy', 100), rule: 'best-source' });
    expect(pick(r('screen', 'busy', 0), r('bytes', 'idle', 500))).toEqual({ ...r('screen', 'busy', 0), rule: 'best-source' });
    expect(pick()).toBeNull();
  });

  it('later-contradiction: a Claude turn interrupted with Esc fires no Stop hook; the title turning idle clearly later overrules', () => {
    const hook = r('hook', 'busy', 1000);
    expect(pick(hook, r('title', 'idle', 1000 + OVERRULE_AFTER_MS))).toMatchObject({ source: 'hook', rule: 'best-source' }); // a frame's disagreement
    expect(pick(hook, r('title', 'idle', 1001 + OVERRULE_AFTER_MS))).toEqual({ ...r('title', 'idle', 1001 + OVERRULE_AFTER_MS), rule: 'later-contradiction' });
  });

  it('new work is news at once: busy on a lesser layer after a hook said idle or waiting (a Codex turn right after its notify)', () => {
    expect(pick(r('hook', 'idle', 1000), r('title', 'busy', 1001))).toEqual({ ...r('title', 'busy', 1001), rule: 'later-contradiction' });
    expect(pick(r('hook', 'waiting', 1000), r('screen', 'busy', 1200))).toMatchObject({ source: 'screen', activity: 'busy' });
    // Not at the same moment, and not the other way: an idle screen just after UserPromptSubmit is a lag.
    expect(pick(r('hook', 'idle', 1000), r('title', 'busy', 1000))).toMatchObject({ source: 'hook' });
    expect(pick(r('hook', 'busy', 1000), r('screen', 'idle', 1200))).toMatchObject({ source: 'hook' });
  });

  it('a hook holds against a lesser layer that agrees with it, however much later', () => {
    expect(pick(r('hook', 'idle', 0), r('title', 'idle', 60_000))).toMatchObject({ source: 'hook' });
  });

  it('dialog-wins: a dialog read in the same check as an idle title wins (Gemini says Ready under its trust dialog)', () => {
    expect(pick(r('title', 'idle', 100), r('screen', 'waiting', 100))).toEqual({ ...r('screen', 'waiting', 100), rule: 'dialog-wins' });
    expect(pick(r('title', 'idle', 100), r('screen', 'waiting', 101))).toEqual({ ...r('screen', 'waiting', 101), rule: 'dialog-wins' });
    expect(pick(r('hook', 'busy', 100), r('screen', 'waiting', 100))).toMatchObject({ source: 'screen', rule: 'dialog-wins' });
  });

  it('an answered dialog still on screen is older news than the title that turned idle after it (Claude)', () => {
    expect(pick(r('title', 'idle', 7547), r('screen', 'waiting', 500))).toMatchObject({ source: 'title', activity: 'idle' });
    expect(pick(r('hook', 'waiting', 100), r('title', 'busy', 50))).toMatchObject({ source: 'hook', activity: 'waiting' });
  });

  it('idle-screen-holds: bytes never overrule a screen that shows an idle prompt (typed text, a resize redraw)', () => {
    expect(pick(r('screen', 'idle', 0), r('bytes', 'busy', 10_000))).toEqual({ ...r('screen', 'idle', 0), rule: 'idle-screen-holds' });
    // A screen that says nothing, or says busy, leaves the bytes their say.
    expect(pick(r('bytes', 'busy', 10_000))).toMatchObject({ source: 'bytes', activity: 'busy' });
    expect(pick(r('screen', 'busy', 0), r('bytes', 'idle', 10_000))).toEqual({ ...r('bytes', 'idle', 10_000), rule: 'later-contradiction' });
  });
});
