import { describe, expect, it } from 'vitest';
import { HOT_WORDS, buildProgram, commandsFor } from '../../src/cli/main.js';

const argv = (...words: string[]) => ['node', 'agent-board', ...words];
const names = (words: string[]) => commandsFor(argv(...words)).map((c) => c.names[0]);

describe('the CLI loads only the command it runs', () => {
  it('a command named first loads with the board (the program default) and nothing else', () => {
    expect(names(['attach', 'abc'])).toEqual(['attach', 'board']);
    expect(names(['list'])).toEqual(['ls', 'board']); // an alias finds its command
    expect(names(['board'])).toEqual(['board']);
    expect(names([])).toEqual(['board']);
  });

  it('help, an option first, or an unknown word load every command', async () => {
    const all = (await buildProgram(argv('--help'))).commands.length;
    expect(all).toBeGreaterThan(16);
    for (const words of [['--help'], ['help'], ['help', 'new'], ['--bogus'], ['atach']]) {
      expect(names(words)).toHaveLength(all);
    }
  });

  it("the program's own options are looked past: the command after them, or the board with none", () => {
    expect(names(['--host', 'box', 'ls'])).toEqual(['ls', 'board']);
    expect(names(['--host=box', 'attach', 'x'])).toEqual(['attach', 'board']);
    expect(names(['--host', 'a', '--host', 'b'])).toEqual(['board']);
    expect(names(['--notify-cmd', 'x'])).toEqual(['board']);
  });

  it('the version loads no command, and the program still answers it', async () => {
    expect(names(['--version'])).toEqual([]);
    expect(names(['-V'])).toEqual([]);
    const program = await buildProgram(argv('--version'));
    let out = '';
    program.configureOutput({ writeOut: (s) => (out += s) });
    await expect(program.parseAsync(argv('--version'))).rejects.toMatchObject({ code: 'commander.version', exitCode: 0 });
    expect(out.trim()).toBe('0.1.0');
  });

  it('the program built for one command still knows that command fully', async () => {
    const program = await buildProgram(argv('send', 'x'));
    const send = program.commands.find((c) => c.name() === 'send')!;
    expect(send.options.map((o) => o.long)).toContain('--when-idle');
    expect(program.commands.map((c) => c.name())).toEqual(['send', 'board']);
    expect((await buildProgram(argv('--help'))).commands.map((c) => c.name())).toContain('chat');
  });

  it('the hot words (the start-up bundle, scripts/bundle.mjs) are the version and the commands run on every turn or watched, and need nothing else', () => {
    expect([...HOT_WORDS].sort()).toEqual(['--version', '-V', 'attach', 'chat', 'hook', 'list', 'ls', 'send']);
    for (const word of HOT_WORDS) {
      for (const name of names([word])) expect(['ls', 'attach', 'send', 'chat', 'hook', 'board']).toContain(name);
    }
  });
});
