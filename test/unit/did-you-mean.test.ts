import { describe, expect, it } from 'vitest';
import { oneLineMessage } from '../../src/cli/commander-errors.js';
import { didYouMean } from '../../src/cli/did-you-mean.js';

const COMMANDS = ['new', 'ls', 'list', 'peek', 'attach', 'kill', 'rm', 'rename', 'merge', 'pr', 'restart', 'revive', 'fork', 'explain', 'diff', 'send', 'chat', 'help'];

describe('did you mean', () => {
  it('guesses the commands within two edits (a swap of neighbours is one), and only those close enough', () => {
    expect(didYouMean('lss', COMMANDS)).toBe(' (did you mean ls?)');
    expect(didYouMean('atach', COMMANDS)).toBe(' (did you mean attach?)');
    expect(didYouMean('sned', COMMANDS)).toBe(' (did you mean send?)');
    expect(didYouMean('revvie', COMMANDS)).toBe(' (did you mean revive?)');
    expect(didYouMean('rr', COMMANDS)).toBe(' (did you mean rm or pr?)');
    expect(didYouMean('frobnicate', COMMANDS)).toBe('');
    expect(didYouMean('x', COMMANDS)).toBe(''); // two edits of a one-letter word is anything
  });
});

describe("commander's errors in one line", () => {
  it('drops the "error: " and the trailing period, quotes as we do, and folds the guess in', () => {
    expect(oneLineMessage("error: unknown option '--jsn'\n(Did you mean --json?)\n")).toBe('unknown option "--jsn" (did you mean --json?)');
    expect(oneLineMessage("error: too many arguments for 'rename'. Expected 2 arguments but got 3.\n")).toBe('too many arguments for "rename". Expected 2 arguments but got 3');
    expect(oneLineMessage("error: missing required argument 'session'\n")).toBe('missing required argument "session"');
  });
});
