/**
 * `agent-board doctor` (src/client/doctor*.ts) as a user runs it: the real CLI in temporary
 * homes, with the fake loginctl/systemctl/systemd-run of test/fixtures/systemd (linger and
 * KillUserProcesses yes or no, or no logind at all) and tiny fake agent CLIs on PATH.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeSystemd, type FakeSystemd } from '../helpers/fake-systemd.js';
import { cli, destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';

interface Check { check: string; status: 'ok' | 'warn' | 'fail'; message: string; fix?: string }

let home: string;
let user: string; // a temporary $HOME: config, units, Claude's settings
let agents: string; // a bin folder of fake agent CLIs
let sd: FakeSystemd;
const me = os.userInfo().username;
beforeEach(() => {
  home = makeHome();
  user = makeHome('ab-user-');
  agents = path.join(user, 'agents-bin');
  fs.mkdirSync(agents);
  sd = fakeSystemd();
});
afterEach(() => {
  destroyHome(home);
  fs.rmSync(user, { recursive: true, force: true });
  sd.dispose();
});

/** A fake agent CLI: answers --version with `version` (or sleeps, or fails). */
function agent(name: string, version: string): void {
  fs.writeFileSync(path.join(agents, name), `#!/bin/sh\n[ "$1" = "--version" ] && { echo "${version}"; exit 0; }\nexit 2\n`, { mode: 0o755 });
}

function doctor(extra: Record<string, string> = {}, args: string[] = ['--json']): { code: number; checks: Check[]; stdout: string } {
  const env = sd.env({
    PATH: `${path.join(sd.dir, 'bin')}:${agents}:/usr/bin:/bin`,
    HOME: user,
    USER: me,
    XDG_CONFIG_HOME: path.join(user, '.config'),
    AGENT_BOARD_CONFIG_HOME: path.join(user, '.config', 'agent-board'),
    ...extra,
  });
  const r = cli(home, ['doctor', ...args], { env });
  return { code: r.code, stdout: r.stdout, checks: args.includes('--json') ? (JSON.parse(r.stdout) as Check[]) : [] };
}
const named = (checks: Check[], name: string): Check => checks.find((c) => c.check === name)!;

function writeConfig(text: string): void {
  fs.mkdirSync(path.join(user, '.config', 'agent-board'), { recursive: true });
  fs.writeFileSync(path.join(user, '.config', 'agent-board', 'config.json'), text);
}

describe('doctor: logout', () => {
  it('a user manager with linger: sessions survive a logout, even where logind kills a login\'s processes', () => {
    sd.set('kill-user-processes', 'yes');
    const { code, checks } = doctor();
    expect(code).toBe(0);
    expect(named(checks, 'logout')).toEqual({ check: 'logout', status: 'ok', message: expect.stringContaining('runners start in a systemd user scope and linger is on') as string });
    expect(fs.readFileSync(path.join(sd.dir, 'loginctl.calls'), 'utf8')).toContain(`show-user ${me} -p Linger`);
    expect(fs.readFileSync(path.join(sd.dir, 'systemctl.calls'), 'utf8')).toContain('--user is-system-running');
  });

  it('KillUserProcesses=yes without linger: warn, and the fix is enable-linger', () => {
    sd.set('kill-user-processes', 'yes');
    sd.set('linger', 'no');
    const { code, checks } = doctor();
    expect(code).toBe(0);
    const c = named(checks, 'logout');
    expect(c).toMatchObject({ status: 'warn', fix: `run: loginctl enable-linger ${me}` });
    expect(c.message).toMatch(/KillUserProcesses=yes.*linger is off/);
  });

  it('KillUserProcesses=no without linger: ok (logind leaves the login\'s processes)', () => {
    sd.set('kill-user-processes', 'no');
    sd.set('linger', 'no');
    expect(named(doctor().checks, 'logout')).toMatchObject({ status: 'ok', message: expect.stringContaining('KillUserProcesses=no') as string });
  });

  it('KillUserProcesses=yes with linger but systemdScope false, or AGENT_BOARD_SYSTEMD=0: warn, say how to turn the scope on', () => {
    sd.set('kill-user-processes', 'yes');
    writeConfig('{"systemdScope": false}');
    expect(named(doctor().checks, 'logout')).toMatchObject({ status: 'warn', fix: expect.stringContaining('"systemdScope": true') as string });
    writeConfig('{}');
    expect(named(doctor({ AGENT_BOARD_SYSTEMD: '0' }).checks, 'logout')).toMatchObject({ status: 'warn', message: expect.stringContaining('AGENT_BOARD_SYSTEMD=0') as string });
  });

  it('without systemd (loginctl cannot reach logind): ok, runners are detached; no systemctl asked', () => {
    sd.set('no-logind', 'yes');
    const r = doctor();
    expect(r.code).toBe(0);
    expect(named(r.checks, 'logout')).toMatchObject({ status: 'ok', message: expect.stringContaining('no systemd-logind') as string });
    sd.dispose();
    sd = fakeSystemd({ manager: false });
    sd.set('no-logind', 'yes');
    expect(named(doctor().checks, 'logout').status).toBe('ok');
    expect(fs.existsSync(path.join(sd.dir, 'systemctl.calls'))).toBe(false);
  });
});

describe('doctor: the install', () => {
  it('agent CLIs on PATH answer --version; missing ones are a warn with what to do; the text form is one line per check', () => {
    agent('claude', '2.1.332 (Claude Code)');
    agent('codex', 'codex-cli 0.171.0');
    const { code, checks } = doctor();
    expect(code).toBe(0);
    expect(named(checks, 'claude')).toMatchObject({ status: 'ok', message: expect.stringMatching(/^2\.1\.332 \(Claude Code\) \(.*agents-bin\/claude\); hooks and chat tools wired/) as string });
    expect(named(checks, 'codex')).toMatchObject({ status: 'ok', message: expect.stringContaining('codex-cli 0.171.0') as string });
    expect(named(checks, 'gemini')).toMatchObject({ status: 'warn', message: expect.stringContaining('gemini is not installed') as string });
    expect(named(checks, 'pi')).toMatchObject({ status: 'warn', message: expect.stringContaining('pi is not installed') as string });
    for (const c of checks) expect(Object.keys(c).sort()).toEqual(c.fix ? ['check', 'fix', 'message', 'status'] : ['check', 'message', 'status']);
    const text = doctor({}, []);
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(checks.length);
    expect(lines).toContainEqual(expect.stringMatching(/^warn  gemini: gemini is not installed .* -> install gemini/));
  });

  it('an agent CLI that never answers --version (and leaves a child holding its output) does not hold doctor up: a warn, its process group killed', () => {
    fs.writeFileSync(path.join(agents, 'gemini'), '#!/bin/sh\nsleep 41.5 &\nexec sleep 41.5\n', { mode: 0o755 });
    // Held up by the 41.5 s sleep, doctor would be ended by the test's cli() after 20 s: no exit 0, no checks.
    const { code, checks } = doctor({ AGENT_BOARD_TEST_VERSION_TIMEOUT_MS: '500' });
    expect(code).toBe(0);
    expect(named(checks, 'gemini')).toMatchObject({ status: 'warn', message: expect.stringContaining('--version failed (no answer within 0.5 s)') as string });
    const left = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
      try {
        return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('41.5');
      } catch {
        return false; // gone meanwhile
      }
    });
    expect(left).toEqual([]);
  });

  it('a Claude that drops our hooks (disableAllHooks in its settings) is a warn', () => {
    agent('claude', '2.1.332 (Claude Code)');
    fs.mkdirSync(path.join(user, '.claude'));
    fs.writeFileSync(path.join(user, '.claude', 'settings.json'), '{"disableAllHooks": true}');
    expect(named(doctor().checks, 'claude')).toMatchObject({ status: 'warn', message: expect.stringContaining('hooks not wired: ') as string });
  });

  it('a home other users can write to fails, and doctor exits 1', () => {
    fs.chmodSync(home, 0o777);
    const { code, checks } = doctor();
    expect(code).toBe(1);
    expect(named(checks, 'home')).toMatchObject({ status: 'fail', fix: `chmod 700 ${home}` });
    fs.chmodSync(home, 0o700);
    expect(named(doctor().checks, 'home').status).toBe('ok');
  });

  it('a bad config.json is a warn per error, not a failure', () => {
    writeConfig('{"systemdScope": "maybe", "hostz": []}');
    const { code, checks } = doctor();
    expect(code).toBe(0);
    const config = checks.filter((c) => c.check === 'config');
    expect(config.map((c) => c.status)).toEqual(['warn', 'warn']);
    expect(config.map((c) => c.message).join('\n')).toMatch(/unknown setting "hostz"[\s\S]*"systemdScope" must be true or false/);
  });

  it('reboot: autoRevive with an enabled login unit that runs revive --if-configured is ok; otherwise what to do', () => {
    expect(named(doctor().checks, 'reboot')).toMatchObject({ status: 'warn', fix: expect.stringContaining('agent-board revive --all') as string });
    writeConfig('{"autoRevive": true}');
    const units = path.join(user, '.config', 'systemd', 'user');
    fs.mkdirSync(path.join(units, 'default.target.wants'), { recursive: true });
    fs.writeFileSync(path.join(units, 'agent-board-revive.service'), '[Service]\nType=oneshot\nExecStart=/usr/bin/env agent-board revive --if-configured\n');
    expect(named(doctor().checks, 'reboot')).toMatchObject({ status: 'warn', fix: 'systemctl --user enable agent-board-revive.service' });
    fs.symlinkSync('../agent-board-revive.service', path.join(units, 'default.target.wants', 'agent-board-revive.service'));
    expect(named(doctor().checks, 'reboot')).toMatchObject({ status: 'ok', message: expect.stringContaining('sessions come back at login') as string });
  });

  it('lost sessions are counted, with the command that brings them back', async () => {
    expect(named(doctor().checks, 'lost').status).toBe('ok');
    const id = newSession(home, ['--name', 'gone', '--', 'sleep', '60']);
    const rec = JSON.parse(fs.readFileSync(path.join(home, 'sessions', id, 'host.json'), 'utf8')) as { runnerPid: number; childPid: number };
    process.kill(rec.childPid, 'SIGKILL');
    process.kill(rec.runnerPid, 'SIGKILL');
    await waitFor('runner gone', () => !fs.existsSync(`/proc/${rec.runnerPid}`) || fs.readFileSync(`/proc/${rec.runnerPid}/stat`, 'utf8').split(' ')[2] === 'Z');
    expect(named(doctor().checks, 'lost')).toEqual({ check: 'lost', status: 'warn', message: '1 lost: gone', fix: 'agent-board revive --all' });
  });
});
