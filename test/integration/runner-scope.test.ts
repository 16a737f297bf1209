/**
 * Runners in a transient systemd user scope (src/client/session/runner-spawn.ts, docs/sessions.md
 * "Outliving the login"), against a fake systemd-run that records its argv and execs the
 * command as the real one does: the real `new`, a real runner, send and peek through it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeSystemd, type FakeSystemd } from '../helpers/fake-systemd.js';
import { cli, destroyHome, makeHome, waitForPeekLines } from '../helpers/home.js';

let home: string;
let config: string;
let sd: FakeSystemd;
beforeEach(() => {
  home = makeHome();
  config = makeHome('ab-config-');
});
afterEach(() => {
  destroyHome(home);
  fs.rmSync(config, { recursive: true, force: true });
  sd?.dispose();
});

interface Row { id: string; name: string; status: string; runnerPid: number }
const env = (extra: Record<string, string> = {}) => sd.env({ AGENT_BOARD_CONFIG_HOME: config, ...extra });
const ls = (): Row[] => JSON.parse(cli(home, ['ls', '--json'], { env: env() }).stdout) as Row[];

function start(name: string, extra: Record<string, string> = {}): { id: string; stderr: string } {
  const r = cli(home, ['new', '--name', name, '--', 'sh', '-c', 'echo up; exec cat'], { env: env(extra) });
  if (r.code !== 0) throw new Error(`new failed (${r.code}): ${r.stderr}`);
  return { id: r.stdout.trim(), stderr: r.stderr };
}

/** The session answers: a line sent is typed into cat, which echoes it back. */
async function works(name: string): Promise<void> {
  await waitForPeekLines(home, name, 'up', (l) => l.includes('up'));
  const s = cli(home, ['send', name, 'hello-scope'], { env: env() });
  expect(s.code, s.stderr).toBe(0);
  await waitForPeekLines(home, name, 'the echo', (l) => l.filter((x) => x === 'hello-scope').length >= 2);
}

describe('runners in a systemd user scope', () => {
  it('with a user manager and linger, new starts the runner through systemd-run --user --scope, and the runner is that pid', async () => {
    sd = fakeSystemd();
    const { id, stderr } = start('scoped');
    expect(stderr).toBe('');
    const runs = sd.runs();
    expect(runs.size).toBe(1);
    const [pid, argv] = [...runs][0]!;
    const dash = argv.indexOf('--');
    expect(argv.slice(0, dash)).toEqual(['--user', '--scope', '--quiet', '--collect', `--unit=agent-board-scoped-${id}.scope`, '--description=agent-board session scoped']);
    expect(argv[dash + 1]).toBe(process.execPath);
    expect(argv.at(-2)).toMatch(/dist[/\\]bundle[/\\]runner\.cjs$/);
    expect(argv.at(-1)).toBe(id);
    expect(ls()[0]).toMatchObject({ id, status: 'running', runnerPid: pid });
    await works('scoped');
  });

  it('without linger, where logind.conf sets KillUserProcesses=yes, the scope still outlives the login that started it: systemd-run', async () => {
    sd = fakeSystemd({ linger: false });
    sd.logindConf('[Login]\nKillUserProcesses=yes\n');
    const { id } = start('kup');
    const [pid] = [...sd.runs().keys()];
    expect(ls()[0]).toMatchObject({ id, runnerPid: pid });
    await works('kup');
  });

  it('a systemd-run that fails still starts the session, plainly, and one line in the runner log says why', async () => {
    sd = fakeSystemd();
    sd.set('refuse', 'yes');
    const { id } = start('refused');
    const [pid] = [...sd.runs().keys()];
    expect(pid).toBeDefined();
    const row = ls()[0]!;
    expect(row).toMatchObject({ id, status: 'running' });
    expect(row.runnerPid).not.toBe(pid);
    const log = fs.readFileSync(path.join(home, 'sessions', id, 'runner.log'), 'utf8');
    expect(log).toContain('Failed to connect to bus');
    expect(log.split('\n').filter((l) => l.includes('systemd-run --user --scope failed (exit code 1); runner started without a scope'))).toHaveLength(1);
    await works('refused');
  });

  it('config.json systemdScope false: no systemd-run', async () => {
    sd = fakeSystemd();
    fs.writeFileSync(path.join(config, 'config.json'), '{"systemdScope": false}');
    start('off-config');
    expect(sd.runs().size).toBe(0);
    await works('off-config');
  });

  it('AGENT_BOARD_SYSTEMD=0: no systemd-run', async () => {
    sd = fakeSystemd();
    start('off-env', { AGENT_BOARD_SYSTEMD: '0' });
    expect(sd.runs().size).toBe(0);
    await works('off-env');
  });

  it('without a user manager (systemd-run on PATH or not), or without linger where logind leaves a login\'s processes: a plain detached runner, as before', async () => {
    sd = fakeSystemd({ manager: false });
    start('no-manager');
    expect(sd.runs().size).toBe(0);
    await works('no-manager');
    sd.dispose();
    sd = fakeSystemd({ linger: false });
    sd.logindConf('[Login]\nKillUserProcesses=no\n');
    start('no-linger');
    expect(sd.runs().size).toBe(0);
    await works('no-linger');
    sd.dispose();
    sd = fakeSystemd({ tools: false });
    start('no-tools');
    await works('no-tools');
    const rows = ls();
    expect(rows.find((r) => r.name === 'no-tools')).toMatchObject({ status: 'running' });
  });
});
