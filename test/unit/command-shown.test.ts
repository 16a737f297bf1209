import { describe, expect, it } from 'vitest';
import { commandShown } from '../../src/core/command-shown.js';

describe('commandShown (ls COMMAND, the board filter)', () => {
  it('a shell session: the program by name, with its arguments', () => {
    expect(commandShown({ agent: 'shell', command: '/bin/bash', args: [] })).toBe('bash');
    expect(commandShown({ agent: 'shell', command: '/usr/bin/python3', args: ['-m', 'http.server'] })).toBe('python3 -m http.server');
  });

  it('the demo agent by its script, without node, its path or the arguments written for it', () => {
    const alice = { agent: 'demo', command: '/usr/bin/node', args: ['/opt/ab/dist/bundle/demo-agent.js', '--name', 'alice', '--peer', 'bob', '--room', 'demo'] };
    expect(commandShown(alice)).toBe('demo-agent');
  });

  it('an agent kind: its program and the words the user gave, not its wiring', () => {
    expect(commandShown({ agent: 'claude', command: 'claude', args: ['--settings', '/home/me/.local/state/agent-board/x.json', '--model', 'opus'], extraArgs: ['--model', 'opus'] })).toBe('claude --model opus');
    expect(commandShown({ agent: 'codex', command: '/usr/local/bin/codex', args: ['-c', 'notify=[...]'] })).toBe('codex');
  });
});
