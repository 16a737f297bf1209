import { describe, expect, it } from 'vitest';
import { wakeText } from '../../src/core/chat/wake-text.js';
import { echoText, fit, oneLine, parseRecords, parseWake, quoted, replyTarget, replyText, wrap } from '../../src/demo/demo-replies.js';

const msg = (id: number, from: string, kind: string, text = 'hi') => ({ id, from, kind, text });

describe('the demo agent, pure parts', () => {
  it('reads room and since from the chat read command of a real wake, not from the post hint', () => {
    const wake = wakeText({ name: 'alice', room: 'demo', mentionIds: [42, 44], cli: 'agent-board' });
    expect(parseWake(wake)).toEqual({ room: 'demo', since: 41 });
    expect(parseWake('agent-board chat read --room r.1 --mentions-only ; answer with: agent-board chat post --room other "..."')).toEqual({ room: 'r.1', since: 0 });
    expect(parseWake('please fix the tests')).toBeNull();
    expect(parseWake('chat read without a room')).toBeNull();
  });

  it('answers the agent that wrote last, else its peer, else the human', () => {
    expect(replyTarget([msg(1, 'human', 'human'), msg(2, 'bob', 'agent')], 'alice', 'carol')).toBe('bob');
    expect(replyTarget([msg(1, 'bob', 'agent'), msg(2, 'human', 'human')], 'alice', 'bob')).toBe('bob');
    expect(replyTarget([msg(1, 'dana', 'human')], 'alice', undefined)).toBe('dana');
    expect(replyTarget([msg(1, 'ALICE', 'agent')], 'alice', 'bob')).toBe('bob'); // never itself
    expect(replyTarget([], 'alice', 'bob')).toBeNull();
  });

  it('its lines are canned, varied and say they are a demo', () => {
    const replies = new Set([0, 1, 2, 3].map((t) => replyText('bob', 'alice', 7, t)));
    expect(replies.size).toBe(4);
    for (const r of replies) {
      expect(r.startsWith('@bob (demo) ')).toBe(true);
      expect(r).toContain('#7');
    }
    expect(echoText('x'.repeat(100), 'alice', 'demo', 0)).toMatch(/^\(demo\) You said "x{59}…"/);
    expect(echoText('hi', 'alice', 'demo', 2)).toContain('--room demo "@alice hi"');
  });

  it('shows a chat text on one line without control characters, and skips output that is not a record', () => {
    expect(oneLine('a\nb\x1b[2Jc')).toBe('a ⏎ b?[2Jc');
    const out = `${JSON.stringify({ id: 3, ts: 't', from: 'bob', kind: 'agent', text: 'x', mentions: [] })}\nnot json\n{"id":"4"}\n`;
    expect(parseRecords(out)).toEqual([{ id: 3, from: 'bob', kind: 'agent', text: 'x' }]);
  });

  it('fits and wraps transcript lines to the width, and quotes command words like a shell', () => {
    expect(fit('abcdef', 4)).toBe('abc…');
    expect(fit('abc', 4)).toBe('abc');
    expect(wrap('abcdefghijkl', 6)).toEqual(['abcdef', '    gh', '    ij', '    kl']);
    expect(wrap('⏺ ok', 10)).toEqual(['⏺ ok']);
    // Between words: no word is cut in two across rows (`agent` / `-board` was).
    expect(wrap('A human can resume us with: agent-board chat continue', 34)).toEqual(['A human can resume us with:', '    agent-board chat continue']);
    for (const row of wrap('the quick brown fox jumps over the lazy dog again and again', 12)) expect([...row].length).toBeLessThanOrEqual(12);
    expect(quoted('--room')).toBe('--room');
    expect(quoted('@bob (demo) say "hi" $HOME')).toBe('"@bob (demo) say \\"hi\\" \\$HOME"');
  });
});
