/**
 * The attach bundle reads `attach`'s line itself (src/cli/attach-main.ts): every form it takes must
 * reach the command as commander gives it (the same session, the same options), and every form it
 * leaves must be one commander reads (help, an unknown option, a missing value).
 */
import { describe, expect, it } from 'vitest';
import { quickAttachArgs } from '../../src/cli/attach-main.js';
import { buildProgram } from '../../src/cli/main.js';

/** What commander passes to attach's action for `agent-board attach ...words` (the action replaced, so nothing attaches). */
async function commanderReads(words: string[]): Promise<{ ref: string; options: Record<string, unknown> }> {
  const argv = ['node', 'agent-board', 'attach', ...words];
  const program = await buildProgram(argv);
  const attach = program.commands.find((c) => c.name() === 'attach')!;
  let got: { ref: string; options: Record<string, unknown> } | null = null;
  attach.action((ref: string, options: Record<string, unknown>) => {
    got = { ref, options: { ...options } };
  });
  await program.parseAsync(argv);
  if (!got) throw new Error(`commander did not run attach for ${words.join(' ')}`);
  return got;
}

describe('quickAttachArgs', () => {
  const taken = [
    ['abc'],
    ['-r', 'abc'],
    ['abc', '--read-only'],
    ['--detach-key', 'ctrl-]', 'abc'],
    ['abc', '--detach-key=ctrl-a'],
    ['--host', 'me@box', 'abc'],
    ['--host=box', '-r', '--detach-key', 'ctrl-b', 'name-with.dots'],
  ];
  for (const words of taken) {
    it(`reads ${JSON.stringify(words.join(' '))} as commander does`, async () => {
      expect(quickAttachArgs(words)).toEqual(await commanderReads(words));
    });
  }

  it('leaves every other form to commander', () => {
    const left = [
      [],
      ['--help'],
      ['-h', 'abc'],
      ['abc', 'def'],
      ['abc', '--no-such'],
      ['abc', '-rx'],
      ['abc', '--read-only=yes'],
      ['abc', '--detach-key'],
      ['abc', '--detach-key='],
      ['abc', '--detach-key', '-r'],
      ['abc', '-r', '-r'],
      ['abc', '--host', 'a', '--host', 'b'],
      ['--', 'abc'],
      [''],
      ['abc', '-V'],
      ['abc', '--notify-cmd', 'x'],
    ];
    for (const words of left) expect(quickAttachArgs(words), words.join(' ')).toBeNull();
  });
});
