import { describe, expect, it } from 'vitest';
import { freshLine } from '../../src/core/terminal/terminal-restore.js';
import { newTerminal } from '../../src/state/headless-terminal.js';

/** Writes `before`, then freshLine, then a message, in an 20x5 terminal: where the message starts and what the rows say. */
async function after(before: string): Promise<{ x: number; y: number; rows: string[] }> {
  const term = newTerminal({ cols: 20, rows: 5, allowProposedApi: true });
  await new Promise<void>((r) => term.write(before + freshLine(20), r));
  const x = term.buffer.active.cursorX;
  const y = term.buffer.active.cursorY;
  await new Promise<void>((r) => term.write('MSG', r));
  const rows = Array.from({ length: 5 }, (_, i) => term.buffer.active.getLine(i)!.translateToString(true).trimEnd()); // blanks as a terminal shows them
  term.dispose();
  return { x, y, rows };
}

describe('freshLine: a message after an attach starts a line of its own', () => {
  it('after a prompt (the cursor inside a row), on the next row, the prompt kept', async () => {
    const r = await after('INNER$ ');
    expect({ x: r.x, y: r.y }).toEqual({ x: 0, y: 1 });
    expect(r.rows.slice(0, 2)).toEqual(['INNER$', 'MSG']);
  });

  it('at column 0 it stays on that row: no blank line', async () => {
    const r = await after('line one\r\n');
    expect({ x: r.x, y: r.y }).toEqual({ x: 0, y: 1 });
    expect(r.rows.slice(0, 2)).toEqual(['line one', 'MSG']);
  });

  it('at column 1, and at the last column with a wrap pending', async () => {
    expect((await after('$')).rows.slice(0, 2)).toEqual(['$', 'MSG']);
    expect((await after('x'.repeat(20))).rows.slice(0, 2)).toEqual(['x'.repeat(20), 'MSG']);
  });
});
