import { describe, expect, it } from 'vitest';
import { looksLikeCi, runnerProcessEnv, sessionEnv } from '../../src/core/agents/session-env.js';

const who = { id: 's1', name: 'api', socket: '/run/s1.sock' };

describe('the environment a session starts with', () => {
  it('tells the program it is not in CI when the runner was started from CI', () => {
    const env = sessionEnv({ CI: 'true', GITHUB_ACTIONS: 'true', CI_JOB_TOKEN: 'x', PATH: '/bin' }, who);
    expect(env.CI).toBe('false');
    expect(env.GITHUB_ACTIONS).toBe('false');
    expect(env.CI_JOB_TOKEN).toBe('x'); // the program may need it; CI=false already quiets Ink
    expect(looksLikeCi(env)).toBe(false);
  });

  it('a CI_ variable alone counts (Ink reads it as CI)', () => {
    expect(looksLikeCi({ CI_COMMIT_SHA: 'abc' })).toBe(true);
    expect(sessionEnv({ CI_COMMIT_SHA: 'abc' }, who).CI).toBe('false');
  });

  it('adds no CI variable where there was none', () => {
    expect('CI' in sessionEnv({ PATH: '/bin' }, who)).toBe(false);
  });

  it('drops the runner-only knobs, names the session and lets the kind have the last word', () => {
    const env = sessionEnv({ AGENT_BOARD_RUNNER_X: '1', AGENT_BOARD_TEST_Y: '2', TERM: 'dumb', HOME: '/h' }, who, { GEMINI_CLI_SYSTEM_SETTINGS_PATH: '/s', TERM: 'screen' });
    expect(env).toEqual({ HOME: '/h', TERM: 'screen', AGENT_BOARD_SESSION: 's1', AGENT_BOARD_NAME: 'api', AGENT_BOARD_SOCKET: '/run/s1.sock', GEMINI_CLI_SYSTEM_SETTINGS_PATH: '/s' });
  });

  it('holds NODE_EXTRA_CA_CERTS out of the runner and gives it back to the program as it was, empty included', () => {
    for (const value of ['/etc/ssl/extra.pem', '']) {
      const runner = runnerProcessEnv({ NODE_EXTRA_CA_CERTS: value, PATH: '/bin' });
      expect('NODE_EXTRA_CA_CERTS' in runner).toBe(false);
      expect(sessionEnv(runner, who).NODE_EXTRA_CA_CERTS).toBe(value);
      expect(Object.keys(sessionEnv(runner, who)).some((k) => k.startsWith('AGENT_BOARD_RUNNER_'))).toBe(false);
    }
  });

  it('adds no NODE_EXTRA_CA_CERTS where the user had none', () => {
    expect(runnerProcessEnv({ PATH: '/bin' })).toEqual({ PATH: '/bin' });
    expect('NODE_EXTRA_CA_CERTS' in sessionEnv(runnerProcessEnv({ PATH: '/bin' }), who)).toBe(false);
  });
});
