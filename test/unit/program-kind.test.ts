import { describe, expect, it } from 'vitest';
import { kindOfCommand } from '../../src/core/agents/program-kind.js';
import { SHIPPED } from '../helpers/kinds.js';

const kinds = () => SHIPPED.kinds.values();
const of = (argv: string[], real: string[] = []) => kindOfCommand(kinds(), argv, real);

describe('kindOfCommand', () => {
  it.each([
    [['claude'], 'claude'],
    [['claude', '--resume', 'abc'], 'claude'],
    [['/usr/local/bin/codex'], 'codex'],
    [['gemini', '-m', 'x'], 'gemini'],
    [['pi', '--provider', 'mock'], 'pi'],
    [['npx', '-y', '@anthropic-ai/claude-code'], 'claude'],
    [['npx', '@google/gemini-cli@latest'], 'gemini'],
    [['npx', '-p', '@openai/codex', 'codex'], 'codex'],
    [['npm', 'exec', '--', '@mariozechner/pi-coding-agent'], 'pi'],
    [['pnpm', 'dlx', '@openai/codex'], 'codex'],
    [['bunx', '@anthropic-ai/claude-code'], 'claude'],
    [['env', 'FOO=1', 'BAR=2', 'claude'], 'claude'],
    [['nice', '-n', '5', 'codex'], 'codex'],
    [['node', '--max-old-space-size=4096', '/usr/lib/node_modules/@google/gemini-cli/bundle/gemini.js'], 'gemini'],
    [['node', '/home/u/.npm-global/lib/node_modules/@mariozechner/pi-coding-agent/dist/cli.js'], 'pi'],
    [['/home/u/.local/share/claude/versions/2.1.332/claude.exe'], 'claude'],
  ])('%j runs %s', (argv, want) => {
    expect(of(argv)).toBe(want);
  });

  it.each([[['bash']], [['vim', 'claude']], [['node', 'server.js']], [['npx', 'prettier', '.']], [['python3', '-m', 'http.server']], [['less', 'codex.log']], [[]]])('%j is no agent', (argv) => {
    expect(of(argv)).toBeNull();
  });

  it('goes by the real path when the name says nothing: a symlink or a renamed wrapper', () => {
    expect(of(['ai'], ['/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js'])).toBe('claude');
    expect(of(['node', '/home/u/bin/g'], ['/opt/tools/node_modules/@google/gemini-cli/bundle/gemini.js'])).toBe('gemini');
    expect(of(['ai'], ['/usr/bin/python3.11'])).toBeNull();
  });

  it('knows no program for the shell or the demo', () => {
    expect(of(['sh'])).toBeNull();
    expect(of(['demo'])).toBeNull();
  });
});
