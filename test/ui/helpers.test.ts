import { describe, expect, it } from 'vitest';
import { splitCommandLine } from '../../src/client/session/command-line.js';
import { fitHints } from '../../src/ui/components/Footer.js';
import { boardLayout } from '../../src/ui/layout.js';
import { cropPreview } from '../../src/ui/preview-crop.js';
import { statusStyle } from '../../src/ui/status-style.js';
import { cut, cutWords, fit, textWidth } from '../../src/ui/text-width.js';

describe('cropPreview', () => {
  const lines = ['line 0 long long long', 'line 1', '', 'line 3', '', ''];

  it('keeps the top-left corner when the screen fits', () => {
    expect(cropPreview({ lines, cursorY: 3 }, 80, 10)).toEqual(['line 0 long long long', 'line 1', '', 'line 3']);
  });

  it('ends a row wider than the pane with an ellipsis, after a whole word', () => {
    expect(cropPreview({ lines, cursorY: 3 }, 14, 10)).toEqual(['line 0 long  …', 'line 1', '', 'line 3']);
    expect(cropPreview({ lines: ['Read: agent-board chat read --room demo'], cursorY: 0 }, 33, 1)).toEqual(['Read: agent-board chat read     …']);
    expect(cropPreview({ lines: ['╭' + '─'.repeat(40) + '╮'], cursorY: 0 }, 10, 1)).toEqual(['╭────────…']);
    // A prompt box's right border off the pane: the ellipsis at the edge, the columns kept.
    expect(cropPreview({ lines: [`│ > hi${' '.repeat(40)}│`], cursorY: 0 }, 12, 1)).toEqual(['│ > hi     …']);
  });

  it('scrolls just enough to keep the cursor row in a shorter pane', () => {
    expect(cropPreview({ lines, cursorY: 3 }, 80, 2)).toEqual(['', 'line 3']);
    expect(cropPreview({ lines, cursorY: 1 }, 80, 2)).toEqual(['line 0 long long long', 'line 1']);
    expect(cropPreview({ lines, cursorY: 99 }, 80, 3)).toEqual(['line 3']); // cursor past the end: the bottom
  });

  it('cuts wide characters whole', () => {
    expect(cropPreview({ lines: ['日本語テキスト'], cursorY: 0 }, 5, 1)).toEqual(['日本…']);
  });

  it('has nothing for a pane of no size', () => {
    expect(cropPreview({ lines, cursorY: 0 }, 0, 5)).toEqual([]);
    expect(cropPreview({ lines, cursorY: 0 }, 5, 0)).toEqual([]);
  });
});

describe('text widths', () => {
  it('counts wide characters as two cells and combining marks as none', () => {
    expect(textWidth('abc')).toBe(3);
    expect(textWidth('日本')).toBe(4);
    expect(textWidth('e\u0301')).toBe(1);
    expect(textWidth('🎉')).toBe(2);
  });

  it('cuts and pads to a width, with an ellipsis when asked', () => {
    expect(cut('日本語', 3)).toBe('日');
    expect(fit('ab', 4)).toBe('ab  ');
    expect(fit('abcdef', 4)).toBe('abcd');
    expect(fit('abcdef', 4, true)).toBe('abc…');
    expect(fit('日本語', 5)).toBe('日本 ');
  });
});

describe('cutWords', () => {
  it('keeps prose that fits, else cuts after the last whole word with an ellipsis', () => {
    expect(cutWords('esc to interrupt', 16)).toBe('esc to interrupt');
    expect(cutWords('⠋ Writing a canned reply… (3s · esc to interrupt)', 40)).toBe('⠋ Writing a canned reply… (3s · esc to…');
    // Never a separator or a second ellipsis before its own.
    expect(cutWords('⠙ Reading the chat… (0s · esc to interrupt)', 22)).toBe('⠙ Reading the chat…');
    expect(cutWords('⠙ Reading the chat… (0s · esc to interrupt)', 26)).toBe('⠙ Reading the chat… (0s…');
    expect(textWidth(cutWords('⠋ Writing a canned reply… (3s · esc to interrupt)', 40))).toBeLessThanOrEqual(40);
    // The cut falls right after a word: that word stays whole.
    expect(cutWords('one two three', 8)).toBe('one two…');
    expect(cutWords('one two three', 9)).toBe('one two…');
  });

  it('cuts inside a word that is long against the width (a path), and never past the width', () => {
    expect(cutWords('see /usr/local/lib/node_modules/agent-board/dist/x.js', 20)).toBe('see /usr/local/lib/…');
    expect(cutWords('abcdefghij', 5)).toBe('abcd…');
    expect(cutWords('日本語 のテキスト', 7)).toBe('日本語…');
    expect(cutWords('abc', 1)).toBe('a');
    for (let w = 2; w < 30; w++) expect(textWidth(cutWords('a quick brown fox jumps over the lazy dog', w))).toBeLessThanOrEqual(w);
  });
});

describe('splitCommandLine', () => {
  it('splits like a shell for the simple cases', () => {
    expect(splitCommandLine('claude')).toEqual(['claude']);
    expect(splitCommandLine('  npm   run dev ')).toEqual(['npm', 'run', 'dev']);
    expect(splitCommandLine(`sh -c 'echo "hi there"; exit 3'`)).toEqual(['sh', '-c', 'echo "hi there"; exit 3']);
    expect(splitCommandLine('echo "a \\"b\\"" c\\ d ""')).toEqual(['echo', 'a "b"', 'c d', '']);
  });

  it('says what is wrong', () => {
    expect(splitCommandLine('   ')).toEqual({ error: 'type a command to run' });
    expect(splitCommandLine("echo 'oops")).toEqual({ error: "the command has an unclosed '" });
  });
});

describe('boardLayout', () => {
  it('stacks list and preview at 80x24, the list taking up to 40%', () => {
    expect(boardLayout(80, 24, 100)).toMatchObject({ sideBySide: false, height: 23, bodyRows: 21, listRows: 8, previewRows: 12, listWidth: 80, previewWidth: 80 });
    expect(boardLayout(80, 24, 2)).toMatchObject({ listRows: 2, previewRows: 18 });
    expect(boardLayout(80, 24, 0)).toMatchObject({ listRows: 1 });
  });

  it('puts them side by side at 200x50', () => {
    const l = boardLayout(200, 50, 3);
    expect(l).toMatchObject({ sideBySide: true, bodyRows: 47, listRows: 47, previewRows: 46, listWidth: 90 });
    expect(l.listWidth + 2 + l.previewWidth).toBe(200);
  });

  it('never goes below a usable minimum', () => {
    expect(boardLayout(10, 3, 5)).toMatchObject({ width: 20, height: 6, bodyRows: 4 });
  });
});

describe('fitHints', () => {
  const hints = ['↑↓ select', 'Enter attach', 'n new', 'x kill', '? help', 'q quit'];
  it('drops the arrows first, then from the end, keeping help and quit', () => {
    expect(fitHints(hints, 200)).toBe(hints.join('  '));
    expect(fitHints(hints, 43)).toBe('Enter attach  n new  x kill  ? help  q quit');
    expect(fitHints(hints, 42)).toBe('Enter attach  n new  ? help  q quit');
    expect(fitHints(hints, 30)).toBe('Enter attach  ? help  q quit');
    expect(fitHints(hints, 14)).toBe('? help  q quit');
    expect(fitHints(hints, 10)).toBe('');
  });
});

describe('statusStyle', () => {
  it('gives each state its glyph and colour, waiting standing out most', () => {
    const s = (status: 'running' | 'starting' | 'exited' | 'lost', exitCode: number | null = null, exitSignal: string | null = null) => statusStyle({ status, exitCode, exitSignal });
    const running = (activity: 'starting' | 'busy' | 'idle' | 'waiting') => statusStyle({ status: 'running', activity, exitCode: null, exitSignal: null });
    expect(running('waiting')).toEqual({ glyph: '◆', color: 'magentaBright', bold: true });
    expect(running('busy')).toEqual({ glyph: '◐', color: 'yellow' });
    expect(running('idle')).toEqual({ glyph: '●', color: 'green' });
    expect(running('starting')).toEqual({ glyph: '◌', color: 'yellow' });
    expect(s('running')).toEqual({ glyph: '◌', color: 'yellow' }); // no activity said yet: starting
    expect(s('starting')).toEqual({ glyph: '◌', color: 'yellow' });
    expect(s('exited', 0)).toEqual({ glyph: '✓', color: 'gray' });
    expect(s('exited', 1)).toEqual({ glyph: '✗', color: 'red' });
    expect(s('exited', null, 'SIGKILL')).toEqual({ glyph: '✗', color: 'red' });
    expect(s('lost')).toEqual({ glyph: '?', color: 'red' });
    // What a stale activity says does not matter once the program is gone.
    expect(statusStyle({ status: 'exited', activity: 'busy', exitCode: 0, exitSignal: null })).toEqual({ glyph: '✓', color: 'gray' });
  });
});
