/** The pure half of runners in a systemd user scope (src/core/systemd-scope.ts): the command line, logind.conf, the logout verdict. */
import { describe, expect, it } from 'vitest';
import { killUserProcessesFrom, logoutVerdict, parseProperties, scopeUnitName, systemdEnvOff, systemdRunArgs, type LogoutFacts } from '../../src/core/systemd-scope.js';

describe('systemd scope', () => {
  it('the unit names the session and its id; systemd-run gets --user --scope, quiet, collected, then the command after --', () => {
    expect(scopeUnitName('claude-1', 'ab12cd34')).toBe('agent-board-claude-1-ab12cd34.scope');
    expect(systemdRunArgs('u.scope', 'd', ['node', '-x', 'r.js'])).toEqual(['--user', '--scope', '--quiet', '--collect', '--unit=u.scope', '--description=d', '--', 'node', '-x', 'r.js']);
  });

  it('AGENT_BOARD_SYSTEMD turns it off with 0, false, no or off only', () => {
    expect(['0', 'false', 'No', ' off '].map(systemdEnvOff)).toEqual([true, true, true, true]);
    expect([undefined, '', '1', 'yes'].map(systemdEnvOff)).toEqual([false, false, false, false]);
  });

  it('KillUserProcesses: the last [Login] setting across logind.conf and its drop-ins; null when none sets it', () => {
    expect(killUserProcessesFrom(['[Login]\n#KillUserProcesses=no\n'])).toBeNull();
    expect(killUserProcessesFrom(['[Login]\nKillUserProcesses=no\n', '[Login]\nKillUserProcesses = yes\n'])).toBe(true);
    expect(killUserProcessesFrom(['[Login]\nKillUserProcesses=yes\n[Other]\nKillUserProcesses=no\n'])).toBe(true);
    expect(parseProperties('Name=me\nLinger=yes\n').get('Linger')).toBe('yes');
  });

  it('the logout verdict: a scope helps only with linger; KillUserProcesses=no needs nothing; no logind needs nothing', () => {
    const f = (o: Partial<LogoutFacts>): LogoutFacts => ({ logind: true, userManager: true, linger: true, killUserProcesses: true, scopeWanted: true, ...o });
    expect(logoutVerdict(f({}), 'me').status).toBe('ok');
    expect(logoutVerdict(f({ logind: false, userManager: false, linger: null }), 'me').status).toBe('ok');
    expect(logoutVerdict(f({ linger: false, killUserProcesses: false }), 'me').status).toBe('ok');
    expect(logoutVerdict(f({ linger: false }), 'me')).toMatchObject({ status: 'warn', fix: 'run: loginctl enable-linger me' });
    expect(logoutVerdict(f({ linger: false, killUserProcesses: null }), 'me')).toMatchObject({ status: 'warn', message: expect.stringContaining('unknown') as string });
    expect(logoutVerdict(f({ scopeWanted: false }), 'me').fix).toContain('systemdScope');
    expect(logoutVerdict(f({ userManager: false }), 'me').message).toContain('no systemd user manager answers');
  });
});
