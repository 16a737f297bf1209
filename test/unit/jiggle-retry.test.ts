import { describe, expect, it } from 'vitest';
import { kindOf } from '../../src/core/agents/kind-rules.js';
import { SHIPPED } from '../helpers/kinds.js';
import { readRecording } from '../helpers/recordings.js';
import {
  advanceRetry,
  BACKOFF_MS,
  createJiggleRetryState,
  feedOutput,
  FULL_CLEAR,
  hasSettleMarker,
  MAX_RETRIES,
  nextRetryDelay,
  stopRetry,
} from '../../src/core/terminal/jiggle-retry.js';

describe('the jiggle chain, step by step', () => {
  // the default marker, ESC[2J: hasSettleMarker with FULL_CLEAR alone
  it('detects ESC[2J in plain data', () => expect(hasSettleMarker('hello\x1b[2Jworld', [FULL_CLEAR])).toBe(true));
  it('detects ESC[2J at start', () => expect(hasSettleMarker('\x1b[2J', [FULL_CLEAR])).toBe(true));
  it('detects ESC[2J followed by ESC[H', () => expect(hasSettleMarker('\x1b[2J\x1b[H', [FULL_CLEAR])).toBe(true));
  it('rejects data without ESC[2J', () => expect(hasSettleMarker('hello world', [FULL_CLEAR])).toBe(false));
  it('rejects ESC[3J (scrollback clear, not full clear)', () => expect(hasSettleMarker('\x1b[3J', [FULL_CLEAR])).toBe(false));
  it('rejects partial escape ESC[2 (no J)', () => expect(hasSettleMarker('\x1b[2', [FULL_CLEAR])).toBe(false));
  // createJiggleRetryState
  it('initial state is fresh', () => {
    const s = createJiggleRetryState();
    expect(s).toMatchObject({ retryIndex: 0, clearDetected: false, stopped: false });
  });
  // feedOutput
  it('feedOutput detects clear sequence', () => {
    const r = feedOutput(createJiggleRetryState(), 'some output \x1b[2J more', '');
    expect(r.clearFound).toBe(true);
    expect(r.state.clearDetected).toBe(true);
  });
  it('feedOutput returns clearFound=false when no clear', () => {
    const r = feedOutput(createJiggleRetryState(), 'normal output', '');
    expect(r.clearFound).toBe(false);
    expect(r.state.clearDetected).toBe(false);
  });
  it('feedOutput handles cross-chunk split: ESC[ + 2J', () => {
    const r1 = feedOutput(createJiggleRetryState(), 'data\x1b[', '');
    expect(r1.clearFound).toBe(false);
    expect(r1.carry).toBe('\x1b[');
    expect(feedOutput(r1.state, '2Jrest', r1.carry).clearFound).toBe(true);
  });
  it('feedOutput handles cross-chunk split: ESC + [2J', () => {
    const r1 = feedOutput(createJiggleRetryState(), 'data\x1b', '');
    expect(r1.clearFound).toBe(false);
    expect(r1.carry).toBe('\x1b');
    expect(feedOutput(r1.state, '[2Jrest', r1.carry).clearFound).toBe(true);
  });
  it('feedOutput clears carry after successful detection', () => {
    const r1 = feedOutput(createJiggleRetryState(), 'data\x1b[', '');
    expect(feedOutput(r1.state, '2Jrest', r1.carry).carry).toBe('');
  });
  it('feedOutput keeps carry for non-matching partial', () => {
    const r = feedOutput(createJiggleRetryState(), 'data\x1b[3', '');
    expect(r.clearFound).toBe(false);
    expect(r.carry.length).toBeGreaterThan(0);
  });
  // nextRetryDelay
  it('nextRetryDelay returns BACKOFF_MS in order', () => {
    let s = createJiggleRetryState();
    for (let i = 0; i < MAX_RETRIES; i++) {
      expect(nextRetryDelay(s)).toBe(BACKOFF_MS[i]);
      s = advanceRetry(s);
    }
  });
  it('nextRetryDelay returns null after MAX_RETRIES', () => {
    let s = createJiggleRetryState();
    for (let i = 0; i < MAX_RETRIES; i++) s = advanceRetry(s);
    expect(nextRetryDelay(s)).toBeNull();
  });
  it('nextRetryDelay returns null when clearDetected', () => {
    expect(nextRetryDelay(feedOutput(createJiggleRetryState(), '\x1b[2J', '').state)).toBeNull();
  });
  it('nextRetryDelay returns null when stopped', () => expect(nextRetryDelay(stopRetry(createJiggleRetryState()))).toBeNull());
  // advanceRetry, stopRetry
  it('advanceRetry increments retryIndex', () => {
    const s1 = advanceRetry(createJiggleRetryState());
    expect(s1.retryIndex).toBe(1);
    expect(advanceRetry(s1).retryIndex).toBe(2);
  });
  it('stopRetry sets stopped=true', () => expect(stopRetry(createJiggleRetryState()).stopped).toBe(true));
  // immutability
  it('feedOutput does not mutate original state', () => {
    const s = createJiggleRetryState();
    feedOutput(s, '\x1b[2J', '');
    expect(s.clearDetected).toBe(false);
  });
  it('advanceRetry does not mutate original state', () => {
    const s = createJiggleRetryState();
    advanceRetry(s);
    expect(s.retryIndex).toBe(0);
  });
  it('stopRetry does not mutate original state', () => {
    const s = createJiggleRetryState();
    stopRetry(s);
    expect(s.stopped).toBe(false);
  });
});

describe('settle markers beyond ESC[2J', () => {
  const claude = kindOf(SHIPPED, 'claude').settleMarkers;

  it("finds Claude's home-and-erase redraw, split at every position across two chunks", () => {
    const data = 'xx\x1b[2D\x1b[3B\x1b[H\x1b[2K\x1b[1B\x1b[2Kyy';
    for (let cut = 0; cut <= data.length; cut++) {
      const r1 = feedOutput(createJiggleRetryState(claude), data.slice(0, cut), '');
      const found = r1.clearFound || feedOutput(r1.state, data.slice(cut), r1.carry).clearFound;
      expect(found, `cut at ${cut}`).toBe(true);
    }
  });

  it('does not take a lone ESC[H or ESC[2K (a spinner update) for a redraw', () => {
    const s = createJiggleRetryState(claude);
    expect(feedOutput(s, '\x1b[H', '').clearFound).toBe(false);
    expect(feedOutput(s, '\x1b[5;1H\x1b[2Kspinner', '').clearFound).toBe(false);
  });

  it('keeps no carry when nothing could start a marker, and a bounded one otherwise', () => {
    const s = createJiggleRetryState(claude);
    expect(feedOutput(s, 'plain text', '').carry).toBe('');
    for (let i = 0; i < 50; i++) {
      const r = feedOutput(s, 'a'.repeat(i) + '\x1b[H\x1b', '');
      expect(r.carry.length).toBeLessThan(claude.reduce((m, x) => Math.max(m, x.length), 0));
    }
  });

  it('any one of several markers settles the chain', () => {
    const codex = kindOf(SHIPPED, 'codex').settleMarkers;
    expect(feedOutput(createJiggleRetryState(codex), '\x1b[?2026h\x1b[1;1H\x1b[J', '').clearFound).toBe(true);
    expect(feedOutput(createJiggleRetryState(codex), '\x1b[2J', '').clearFound).toBe(true);
  });

  it('an unknown agent kind falls back to the shell settings', () => {
    expect(kindOf(SHIPPED, 'nope')).toBe(SHIPPED.kinds.get('shell'));
  });
});

/** The real programs: after every resize in a recording, its kind's marker shows up in the output that follows. */
describe('settle markers on the recordings', () => {
  const cases: Array<[string, string]> = [
    ['claude-120x35.jsonl', 'claude'],
    ['codex-120x35.jsonl', 'codex'],
    ['codex-turns-120x35.jsonl', 'codex'],
    ['gemini-turns-120x35.jsonl', 'gemini'],
    ['pi-120x35.jsonl', 'pi'],
    ['pi-turns-120x35.jsonl', 'pi'],
  ];
  for (const [file, kind] of cases) {
    it(`${file}: the ${kind} chain settles after each resize`, () => {
      const { events } = readRecording(file);
      const resizes = events.map((e, i) => (e.resize ? i : -1)).filter((i) => i >= 0);
      expect(resizes.length).toBeGreaterThan(0);
      let settledAfter = 0;
      for (const at of resizes) {
        // Feed what the program printed in the 3 s after the resize, chunk by chunk, as the attach client would.
        let state = createJiggleRetryState(kindOf(SHIPPED, kind).settleMarkers);
        let carry = '';
        for (const e of events.slice(at + 1)) {
          if (e.t - events[at]!.t > 3000 || e.resize) break;
          if (e.o === undefined) continue;
          ({ state, carry } = feedOutput(state, e.o, carry));
          if (state.clearDetected) break;
        }
        if (state.clearDetected) settledAfter++;
      }
      // Codex answers a size query first and redraws on its next frame; every other program redraws each time.
      expect(settledAfter).toBeGreaterThanOrEqual(kind === 'codex' ? 1 : resizes.length);
    });
  }
});
