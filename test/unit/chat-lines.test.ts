import { describe, expect, it } from 'vitest';
import type { ChatRecord } from '../../src/core/chat/chat.js';
import { chatLines, chatTime, mentionSpans, recordLines, type ChatLine } from '../../src/ui/chat-lines.js';
import { textWidth } from '../../src/ui/text-width.js';

const TS = new Date(2025, 0, 1, 9, 5).toISOString();
const rec = (over: Partial<ChatRecord>): ChatRecord => ({ id: 1, ts: TS, from: 'alice', kind: 'human', text: '', mentions: [], ...over });
const text = (l: ChatLine) => l.segments.map((s) => s.text).join('');
const styled = (l: ChatLine, style: string) => l.segments.filter((s) => s.style === style).map((s) => s.text);

describe('recordLines', () => {
  it('#id hh:mm from: text, the id and time dim and the sender by kind', () => {
    const [line, more] = recordLines(rec({ id: 12, text: 'hello' }), 80);
    expect(more).toBeUndefined();
    expect(text(line!)).toBe('#12 09:05 alice: hello');
    expect(line!.segments.slice(0, 2)).toEqual([{ text: '#12 09:05 ', style: 'meta' }, { text: 'alice', style: 'human' }]);
    expect(styled(recordLines(rec({ from: 'bot', kind: 'agent', text: 'hi' }), 80)[0]!, 'agent')).toEqual(['bot']);
    expect(chatTime('not a time')).toBe('--:--');
  });

  it('wraps at spaces to the width, later rows indented by four; a word longer than a row is cut', () => {
    const rows = recordLines(rec({ text: 'one two three four five six seven eight nine ten' }), 24).map(text);
    expect(rows).toEqual(['#1 09:05 alice: one two', '    three four five six', '    seven eight nine ten']);
    const long = recordLines(rec({ text: 'x'.repeat(30) }), 20).map(text);
    expect(long).toEqual(['#1 09:05 alice:', '    xxxxxxxxxxxxxxxx', '    xxxxxxxxxxxxxx']);
    for (const r of [...rows, ...long]) expect(textWidth(r)).toBeLessThanOrEqual(24);
  });

  it('puts each line of the text on its own row, indented, blank lines kept', () => {
    expect(recordLines(rec({ text: 'first\r\n\nthird' }), 40).map(text)).toEqual(['#1 09:05 alice: first', '    ', '    third']);
  });

  it('counts wide characters as two cells', () => {
    const rows = recordLines(rec({ text: '漢字'.repeat(6) }), 20).map(text);
    expect(rows).toEqual(['#1 09:05 alice:', `    ${'漢字'.repeat(4)}`, `    ${'漢字'.repeat(2)}`]);
    expect(recordLines(rec({ text: '漢字漢字' }), 24).map(text)).toEqual(['#1 09:05 alice: 漢字漢字']);
    expect(recordLines(rec({ text: '漢字漢字' }), 23).map(text)).toEqual(['#1 09:05 alice:', '    漢字漢字']);
  });

  it('shows control characters in caret notation, so a post cannot drive the terminal', () => {
    expect(text(recordLines(rec({ text: 'a\x1b[2Jb\x07' }), 80)[0]!)).toBe('#1 09:05 alice: a^[[2Jb^G');
    expect(text(recordLines(rec({ text: 'a\tb' }), 80)[0]!)).toBe('#1 09:05 alice: a    b'); // a tab is spaces
  });

  it('highlights the mentions the record carries, not inside code, not inside a word', () => {
    const r = rec({ text: 'ask @Bob and @all; not `@bob`, mail@bob.dev or @bobby', mentions: ['bob', 'all'] });
    expect(styled(recordLines(r, 200)[0]!, 'mention')).toEqual(['@Bob', '@all']);
    expect(mentionSpans('thanks @bob.', ['bob'])).toEqual([[7, 11]]);
    expect(mentionSpans('@bob.b', ['bob'])).toEqual([]);
    // No mentions recorded: nothing is highlighted.
    expect(styled(recordLines(rec({ text: '@bob' }), 80)[0]!, 'mention')).toEqual([]);
  });

  it('sets system records apart: the whole text in the system style', () => {
    const [line] = recordLines(rec({ from: 'system', kind: 'system', text: 'loop guard: paused @bob', event: 'pause', mentions: ['bob'] }), 80);
    expect(styled(line!, 'system').join('')).toBe('system: loop guard: paused @bob');
    expect(styled(line!, 'mention')).toEqual([]);
  });

  it('chatLines: every record in order, with keys unique across them', () => {
    const lines = chatLines([rec({ id: 1, text: 'a b c d e f g h' }), rec({ id: 2, text: 'two' })], 20);
    expect(lines.map(text)).toEqual(['#1 09:05 alice: a b', '    c d e f g h', '#2 09:05 alice: two']);
    expect(new Set(lines.map((l) => l.key)).size).toBe(3);
  });
});
