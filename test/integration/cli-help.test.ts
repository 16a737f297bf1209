/**
 * The built CLI's help and its answers to a mistyped line: `help <command>`, a guess for a
 * mistyped command, `--host` before a command, commander's own errors in one line, and a
 * top-level help with --host, examples and how to detach, tidy at 80 columns.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cli, cliAsync, destroyHome, makeHome } from '../helpers/home.js';
import { clientOpts, freePort } from '../helpers/sshd.js';

const home = makeHome('ab-help-');
afterAll(() => destroyHome(home));

const widest = (text: string) => Math.max(...text.split('\n').map((l) => l.length));

describe('help', () => {
  it('help <command> is that command\'s help, help alone the top-level one', () => {
    for (const c of ['new', 'attach', 'send', 'merge', 'chat']) {
      const r = cli(home, ['help', c]);
      expect(r, c).toMatchObject({ code: 0, stderr: '' });
      expect(r.stdout).toBe(cli(home, [c, '--help']).stdout);
      expect(r.stdout).toMatch(new RegExp(`^Usage: agent-board ${c} `));
    }
    expect(cli(home, ['help', 'chat', 'post']).stdout).toMatch(/^Usage: agent-board chat post /);
    const top = cli(home, ['help']);
    expect(top).toMatchObject({ code: 0, stderr: '' });
    expect(top.stdout).toBe(cli(home, ['--help']).stdout);
  });

  it('the top-level help has --host, the help command, examples and how to detach, within 80 columns', () => {
    const help = cli(home, ['--help']).stdout;
    expect(help).toMatch(/^ {2}--host <\[user@\]host> +with ls, peek, attach, send, explain: that command$/m);
    // The commands in groups, one line each, no [options] in the list.
    expect(help).toContain('\nSessions:\n  new [command...]          start a session (an agent, a shell, any program)\n');
    expect(help).toMatch(/\nWorktrees:\n {2}merge <session> /);
    expect(help).not.toContain('[options] <session>');
    expect(help).toMatch(/^ {2}help \[command\] +a command's help/m);
    expect(help).toContain('\nExamples:\n  agent-board new -n api -- claude ');
    expect(help).toContain('agent-board attach api             full screen; Ctrl-\\ detaches, api runs on');
    expect(widest(help)).toBeLessThanOrEqual(80);
    const attach = cli(home, ['attach', '--help']).stdout;
    expect(attach).toContain('Detaching: Ctrl-\\ (or the key of --detach-key or AGENT_BOARD_DETACH_KEY) leaves\nthe session running');
    expect(widest(attach)).toBeLessThanOrEqual(80);
  });
});

describe('a mistyped line: one line on stderr, exit 2', () => {
  const cases: Array<[string[], string]> = [
    [['lss'], 'unknown command "lss" (did you mean ls?); see: agent-board --help'],
    [['help', 'lss'], 'unknown command "lss" (did you mean ls?); see: agent-board --help'],
    [['atach', 'x'], 'unknown command "atach" (did you mean attach?); see: agent-board --help'],
    [['frobnicate'], 'unknown command "frobnicate"; see: agent-board --help'],
    [['--host', 'box', 'lss'], 'unknown command "lss" (did you mean ls?); see: agent-board --help'],
    [['ls', '--jsn'], 'unknown option "--jsn" (did you mean --json?); see: agent-board ls --help'],
    [['--hots', 'box'], 'unknown option "--hots" (did you mean --host?); see: agent-board --help'],
    [['chat', 'pots'], 'unknown command "pots" (did you mean post?); see: agent-board chat --help'],
    [['merge'], 'missing required argument "session"; see: agent-board merge --help'],
    [['rename', 'a', 'b', 'c'], 'too many arguments for "rename". Expected 2 arguments but got 3; see: agent-board rename --help'],
    [['send', 'x', '--wait'], 'option "--wait <stage>" argument missing; see: agent-board send --help'],
    [['--host', 'box', 'merge', 'x'], 'merge runs on this machine only (--host goes with ls, peek, attach, send, explain and the board); on box: ssh box agent-board merge ...'],
    [['--host', 'a', '--host', 'b', 'peek', 'x'], 'peek takes one --host, not 2'],
    [['--notify-cmd', 'true', 'ls'], '--notify-cmd goes with the board (and demo), not ls'],
  ];
  for (const [args, line] of cases) {
    it(args.join(' '), () => {
      expect(cli(home, args)).toEqual({ code: 2, stdout: '', stderr: `agent-board: ${line}\n` });
    });
  }
});

describe('--host before a command', () => {
  it('runs the command with --host: ls and peek go over ssh (to a port nobody listens on: exit 5, one line)', async () => {
    const env = { AGENT_BOARD_SSH_OPTS: clientOpts(await freePort(), '/dev/null') };
    for (const args of [['--host', '127.0.0.1', 'ls'], ['--host=127.0.0.1', 'peek', 'far']]) {
      const r = await cliAsync(home, args, { env });
      expect(r.code, args.join(' ')).toBe(5);
      expect(r.stderr).toMatch(/^agent-board: cannot reach 127\.0\.0\.1 over ssh: [^\n]*refused[^\n]*\n$/);
    }
  });
});
