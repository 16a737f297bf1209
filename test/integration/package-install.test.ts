/**
 * The package a user installs: `npm pack`'s tarball (package.json's files) installed with
 * `npm install -g` into a temporary prefix, with a temporary HOME and npm cache (the user's npm
 * config is read for what reaches a registry and the node headers, never written), gives a
 * working agent-board: doctor, a session, an agent's hooks and MCP server that call the
 * installed binary (not another agent-board earlier on PATH), the demo, the board in tmux. The
 * install is quiet; where the native addons cannot be built it says so in one line and the tool
 * runs without them; without node-pty's native part the install fails in one line with the fix.
 *
 * It packs the build `npm test` made (--ignore-scripts: prepack would rebuild dist/ under the
 * other test files' feet).
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { destroyHome, ROOT, waitFor } from '../helpers/home.js';
import { killAllTmux, TmuxServer } from '../helpers/tmux.js';

const FAKE_CLAUDE = path.join(ROOT, 'test', 'fixtures', 'programs', 'fake-claude.mjs');

let tmp: string;
let tarball: string;
let prefix: string;
/** The installed package's folder, and its command as npm linked it. */
let pkg: string;
let bin: string;
/** agent-board's state home for the installed copy's sessions. */
let abHome: string;
/** Another agent-board, first on the user's PATH: it only notes that it was called. */
let decoyLog: string;
let userEnv: NodeJS.ProcessEnv;
let npmEnv: NodeJS.ProcessEnv;
let installOutput: string;

/** Our environment without what an enclosing `npm test` passes to its scripts (npm_config_*, npm_package_*, ...). */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && !k.startsWith('AGENT_BOARD_')));
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, opts: { cwd?: string; timeout?: number } = {}): SpawnSyncReturns<string> {
  const r = spawnSync(cmd, args, { env, cwd: opts.cwd ?? tmp, encoding: 'utf8', timeout: opts.timeout ?? 30_000 });
  if (r.error) throw r.error;
  return r;
}
const ab = (args: string[], extra: Record<string, string> = {}) => run(bin, args, { ...userEnv, ...extra });
const npm = (args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) => run('npm', args, { ...npmEnv, ...opts.env }, { cwd: opts.cwd, timeout: 240_000 });

interface Listed { id: string; name: string; status: string; activity?: string; activitySource?: string; resumeId?: string }
const sessions = () => JSON.parse(ab(['ls', '--json']).stdout) as Listed[];
const session = (name: string) => sessions().find((s) => s.name === name);
const doctor = () => {
  const r = ab(['doctor', '--json']);
  return { code: r.status, checks: JSON.parse(r.stdout) as Array<{ check: string; status: string; message: string; fix?: string }> };
};
const check = (name: string) => doctor().checks.find((c) => c.check === name)!;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-package-'));
  const home = path.join(tmp, 'home');
  prefix = path.join(tmp, 'prefix');
  abHome = path.join(home, 'ab');
  fs.mkdirSync(abHome, { recursive: true, mode: 0o700 });
  // The user's npm config (a registry mirror, a proxy, nodedir for node-gyp's headers) is read, not written.
  const userconfig = process.env.npm_config_userconfig ?? path.join(os.homedir(), '.npmrc');
  npmEnv = { ...cleanEnv(), HOME: home, npm_config_cache: path.join(tmp, 'npm-cache'), npm_config_userconfig: fs.existsSync(userconfig) ? userconfig : path.join(tmp, 'no-npmrc') };

  const packed = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: ROOT });
  expect(packed.status, packed.stderr).toBe(0);
  tarball = path.join(tmp, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename);

  // The line of the README, with npm's own chatter about funding, audits and its updates off.
  const installed = npm(['install', '-g', '--prefix', prefix, `--allow-scripts=node-pty,${tarball}`, '--no-foreground-scripts', '--no-fund', '--no-audit', '--no-update-notifier', tarball]);
  installOutput = `${installed.stdout}${installed.stderr}`;
  expect(installed.status, installOutput).toBe(0);
  pkg = path.join(prefix, 'lib', 'node_modules', 'agent-board');
  bin = path.join(prefix, 'bin', 'agent-board');

  const decoy = path.join(tmp, 'decoy');
  fs.mkdirSync(decoy);
  decoyLog = path.join(tmp, 'decoy.log');
  fs.writeFileSync(path.join(decoy, 'agent-board'), `#!/bin/sh\necho "$@" >> ${decoyLog}\n`, { mode: 0o755 });
  userEnv = {
    ...cleanEnv(),
    HOME: home,
    AGENT_BOARD_HOME: abHome,
    // Another agent-board first, then the installed one, as for a user with an older copy on PATH.
    PATH: [decoy, path.join(prefix, 'bin'), path.dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
    SHELL: '/bin/bash',
    // The demo's rally, quicker (the runners inherit these).
    AGENT_BOARD_WAKE_IDLE_MS: '800',
    AGENT_BOARD_WAKE_SUPPRESS_MS: '1200',
    AGENT_BOARD_WAKE_COALESCE_MS: '200',
    AGENT_BOARD_DEMO_WORK_MS: '300',
  };
}, 300_000);

afterAll(() => {
  killAllTmux();
  if (abHome) destroyHome(abHome);
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the package, installed from its tarball', () => {
  it('holds what runs and its docs, and no tests, bench or sources; installs quietly', () => {
    const files = run('tar', ['tzf', tarball], process.env).stdout.trim().split('\n').map((f) => f.replace(/^package\//, ''));
    for (const f of ['bin/agent-board', 'bin/package.json', 'dist/bundle/hot.js', 'dist/bundle/hot.js.cache', 'dist/bundle/main.js', 'dist/bundle/runner.cjs', 'dist/bundle/demo-agent.js', 'src/core/agents/rules/claude.json', 'src/runner/native/binding.gyp', 'src/runner/native/echo_relay.c', 'scripts/postinstall.cjs', 'package.json', 'README.md', 'docs/cli.md']) {
      expect(files).toContain(f);
    }
    // The sandbox's network proxy goes along inside it (package.json's bundleDependencies: npm would warn about its engines field at install).
    expect(files).toContain('node_modules/@anthropic-ai/sandbox-runtime/package.json');
    // The docs go along: the help and the errors point at docs/cli.md. None of our tests, bench or sources (the bundled package's own files aside).
    expect(files.filter((f) => !f.startsWith('node_modules/')).filter((f) => /^(test|bench|\.ci)\//.test(f) || /^src\/(?!core\/agents\/rules\/|runner\/native\/[^/]+\.(c|gyp)$)/.test(f) || /^dist\/(?!bundle\/)/.test(f) || f.endsWith('.ts'))).toEqual([]);
    expect(files.some((f) => f.includes('/build/'))).toBe(false);

    // One line, npm's own: nothing from node-gyp, nothing of ours, no notice about install scripts.
    expect(installOutput.trim().split('\n')).toEqual([expect.stringMatching(/^added \d+ packages? in [\d.]+m?s$/)]);
    expect(fs.existsSync(path.join(pkg, 'src', 'runner', 'native', 'build', 'Release', 'echo_relay.node'))).toBe(true);
  });

  it('runs: --version, and doctor finds its bundle, node-pty and the native addons', () => {
    expect(ab(['--version'])).toMatchObject({ status: 0, stdout: '0.1.0\n' });
    const d = doctor();
    expect(d.code).toBe(0);
    const byName = Object.fromEntries(d.checks.map((c) => [c.check, c]));
    expect(byName.bundle).toMatchObject({ status: 'ok', message: expect.stringContaining(path.join(pkg, 'dist', 'bundle', 'runner.cjs')) });
    expect(byName.pty).toEqual({ check: 'pty', status: 'ok', message: 'node-pty loads' });
    expect(byName.native).toMatchObject({ status: 'ok' });
  });

  it('starts a session: new, ls, send, peek', { timeout: 60_000 }, async () => {
    const r = ab(['new', '--name', 'sh', '--', 'bash', '--norc', '--noprofile']);
    expect(r.status, r.stderr).toBe(0);
    await waitFor('sh running', () => session('sh')?.status === 'running');
    expect(ab(['send', 'sh', 'echo "six times seven is $((6*7))"']).status).toBe(0);
    await waitFor('the answer on its screen', () => ab(['peek', 'sh']).stdout.includes('six times seven is 42'));
  });

  it('serves the board in a browser: web starts from the installed copy, serves its page and the terminal chunk, and stops', { timeout: 60_000 }, async () => {
    const r = ab(['web', '--port', '0']);
    expect(r.status, r.stderr).toBe(0);
    const url = /running at (\S+)/.exec(r.stdout)![1]!;
    try {
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('/app.js');
      const app = await (await fetch(`${url}app.js`)).text();
      const chunk = /["']\.\/(chunk-[A-Z0-9]+\.js)["']/.exec(app);
      expect(chunk, 'app.js imports the terminal chunk').not.toBeNull();
      expect((await fetch(`${url}${chunk![1]}`)).status).toBe(200);
    } finally {
      expect(ab(['web', '--stop']).status).toBe(0);
    }
  });

  it("an agent's hooks and MCP server call the installed agent-board, not the one first on the user's PATH", { timeout: 60_000 }, async () => {
    const r = ab(['new', '--agent', 'claude', '--name', 'cc', '--command', process.execPath, '--', FAKE_CLAUDE], { FAKE_CLAUDE_TURN_MS: '1000' });
    expect(r.status, r.stderr).toBe(0);
    // SessionStart's hook reports the conversation's id; the prompt's hooks the status.
    await waitFor('the id from its SessionStart hook', () => session('cc')?.resumeId);
    expect(ab(['send', 'cc', 'fix the bug']).status).toBe(0);
    await waitFor('busy by its hook', () => session('cc')?.activity === 'busy' && session('cc')?.activitySource === 'hook', 10_000);
    await waitFor('idle by its Stop hook', () => session('cc')?.activity === 'idle' && session('cc')?.activitySource === 'hook', 10_000);
    expect(fs.existsSync(decoyLog) ? fs.readFileSync(decoyLog, 'utf8') : '').toBe('');

    // The chat tools it is given (`agent-board mcp`), from the installed copy alone: its bundle needs no dependency of ours.
    const env = Object.fromEntries(Object.entries({ ...userEnv, AGENT_BOARD_SESSION: session('cc')!.id }).filter((e): e is [string, string] => e[1] !== undefined));
    const client = new Client({ name: 'package-test', version: '0.0.0' });
    await client.connect(new StdioClientTransport({ command: bin, args: ['mcp'], env, stderr: 'pipe' }));
    try {
      const sent = (await client.callTool({ name: 'chat_send', arguments: { text: 'from the installed copy' } })) as { content: Array<{ text?: string }> };
      expect(sent.content[0]?.text).toBe('posted #1 to default as cc');
    } finally {
      await client.close();
    }
  });

  it('the demo runs, and the board shows it in tmux', { timeout: 120_000 }, async () => {
    const r = ab(['demo', '--no-board']);
    expect(r.status, r.stderr).toBe(0);
    // The demo agents answer with `agent-board chat ...`: the installed one, as the decoy stays silent.
    const chat = () => ab(['chat', 'read', '--room', 'demo']).stdout;
    await waitFor('alice and bob talking', () => /alice: @bob \(demo\)/.test(chat()) && /bob: @alice \(demo\)/.test(chat()), 45_000, 250);
    expect(fs.existsSync(decoyLog) ? fs.readFileSync(decoyLog, 'utf8') : '').toBe('');

    const env = Object.fromEntries(Object.entries(userEnv).filter((e): e is [string, string] => e[1] !== undefined));
    const t = TmuxServer.start({ command: ['env', `PATH=${userEnv.PATH}`, bin], env, cols: 120, rows: 35 });
    await t.waitForScreen('the board with the five sessions', (s) => /^agent-board 5 sessions\b/.test(s.lines[0] ?? '') && ['alice', 'bob', 'shell', 'sh', 'cc'].every((n) => s.text.includes(n)), { timeoutMs: 20_000 });
    t.kill();
    for (const name of ['alice', 'bob', 'shell', 'sh', 'cc']) expect(ab(['rm', '--force', name]).status).toBe(0);
  });

  it('its postinstall is silent when it builds, and where the native addons cannot be built says so in one line; doctor says what falls back', { timeout: 120_000 }, () => {
    // As npm runs it with --foreground-scripts, or in a clone's npm ci: node-gyp's lines go to a log.
    expect(npm(['run', '--silent', 'postinstall'], { cwd: pkg })).toMatchObject({ status: 0, stdout: '', stderr: '' });
    expect(fs.readFileSync(path.join(pkg, 'src', 'runner', 'native', 'build', 'install.log'), 'utf8')).toMatch(/echo_relay/);

    const r = npm(['run', '--silent', 'postinstall'], { cwd: pkg, env: { CC: path.join(tmp, 'no-such-cc') } });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^agent-board: the native addons \(src\/runner\/native\) were not built \(.*no-such-cc.*; node-gyp's output: .*install\.log\): keys and echo go through the event loop, and the board's helper threads keep their priority\n$/);
    const native = check('native');
    expect(native.status).toBe('warn');
    expect(native.message).toContain('the echo relay is not built (its install could not build it: install agent-board again with python3, make and a C compiler on PATH): keys and echo go through the event loop');
    expect(doctor().code).toBe(0);
  });

  it("without node-pty's native part: the install fails in one line with the fix, doctor fails, new says why", { timeout: 240_000 }, () => {
    // npm 11 runs a dependency's install script unless a policy denies it; a project's allowScripts can.
    const project = path.join(tmp, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'p', private: true, allowScripts: { 'node-pty': false } }));
    const r = npm(['install', '--no-fund', '--no-audit', '--no-update-notifier', tarball], { cwd: project });
    expect(r.status).not.toBe(0);
    const ours = `${r.stdout}${r.stderr}`.split('\n').filter((l) => l.includes('agent-board:'));
    expect(ours).toEqual([
      `npm error agent-board: node-pty cannot load (its native part (pty.node) is not built for ${process.platform}-${process.arch}), so no session could start: allow its install script ("node-pty": true in your package.json's allowScripts), then install again`,
    ]);
    expect(fs.existsSync(path.join(project, 'node_modules', 'agent-board'))).toBe(false);

    // The installed copy, its node-pty binary lost.
    const built = path.join(pkg, 'node_modules', 'node-pty', 'build', 'Release', 'pty.node');
    fs.renameSync(built, `${built}.lost`);
    // Its postinstall again, told what npm tells it in a global install of the tarball.
    const again = npm(['run', '--silent', 'postinstall'], { cwd: pkg, env: { npm_config_global: 'true', npm_package_resolved: `file:${tarball}` } });
    expect(again.status).toBe(1);
    expect(again.stderr).toBe(
      `agent-board: node-pty cannot load (its native part (pty.node) is not built for ${process.platform}-${process.arch}), so no session could start: install again with its install script allowed: npm install -g --allow-scripts=node-pty,${tarball} ${tarball}\n`,
    );

    const d = doctor();
    expect(d.code).toBe(1);
    expect(d.checks.find((c) => c.check === 'pty')).toMatchObject({ status: 'fail', message: expect.stringContaining('no session can start'), fix: expect.stringContaining('--allow-scripts=node-pty') });
    const started = ab(['new', '--name', 'nopty', '--', 'bash']);
    expect(started.status).not.toBe(0);
    expect(started.stderr).toMatch(/^agent-board: session \w+ did not start: node-pty cannot load \(its native part \(pty\.node\) is not built for [\w-]+\): install agent-board again with node-pty's install script allowed/);
  });
});
