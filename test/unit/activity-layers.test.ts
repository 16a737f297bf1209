import { describe, expect, it } from 'vitest';
import { layerActivity, OVERRULE_AFTER_MS, type SourceReading } from '../../src/core/activity-layers.js';

const r = (source: SourceReading['source'], activity: SourceReading['activity'], changedAt: number): SourceReading => ({ source, activity, changedAt });

describe('layerActivity', () => {
  it('the best source that has spoken wins while the others agree or lag', () => {
    expect(layerActivity([r('title', 'idle', 0), r('hook', 'busy', 100), r('screen', 'idle', 200)])).toEqual(r('hook', 'busy', 100));
    expect(layerActivity([r('bytes', 'busy', 500), r('screen', 'idle', 0)])).toEqual(r('screen', 'idle', 0));
    expect(layerActivity([])).toBeNull();
  });

  it('a Claude turn interrupted with Esc: no Stop hook, but the title turning idle clearly later overrules the stale busy', () => {
    const hook = r('hook', 'busy', 1000);
    expect(layerActivity([hook, r('title', 'idle', 1000 + OVERRULE_AFTER_MS)])).toBe(hook); // not yet: a frame's disagreement
    expect(layerActivity([hook, r('title', 'idle', 1001 + OVERRULE_AFTER_MS)])).toEqual(r('title', 'idle', 1001 + OVERRULE_AFTER_MS));
  });

  it('a dialog that came up after the winner changed wins at once (Gemini\'s title says Ready under its trust dialog)', () => {
    expect(layerActivity([r('title', 'idle', 100), r('screen', 'waiting', 101)])).toEqual(r('screen', 'waiting', 101));
    expect(layerActivity([r('title', 'idle', 100), r('screen', 'waiting', 100)])).toEqual(r('title', 'idle', 100));
    expect(layerActivity([r('hook', 'waiting', 100), r('title', 'busy', 50)])).toEqual(r('hook', 'waiting', 100));
  });
});
