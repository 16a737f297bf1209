/**
 * The container backend (`--sandbox container[:IMAGE]`, docs/sandbox.md "Container backend")
 * against this machine's real podman and docker. Where one of them really runs a container (a
 * root folder made of this machine's own sh and its libraries: no registry is needed), a program
 * launched as a session's is launched runs in it: the worktree at its own path, a file written
 * there seen by the host, a file outside not. Where neither can, that part says NOT RUN loudly and
 * the refusals still run: the preflight says no in one line, with the engines' own words.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pty from 'node-pty';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { ContainerRoot } from '../../src/core/sandbox/container-args.js';
import { containerLaunch, removeContainerArgs } from '../../src/runner/sandbox/container-launch.js';
import { findProgram } from '../../src/state/process/find-program.js';
import { realScheduler } from '../../src/state/real-time.js';
import { probeContainer, type ContainerProbe } from '../../src/state/sandbox/container-probe.js';
import { sandboxPreflight } from '../../src/state/sandbox/sandbox-preflight.js';

const scheduler = realScheduler();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-sandbox-container-'));

/** A root folder holding this machine's sh, true, cat and the libraries they load (ldd's list): enough for a session's shell. */
function hostRootfs(dir: string): string {
  for (const d of ['bin', 'dev', 'proc', 'sys', 'tmp', 'etc', 'run']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  for (const prog of ['sh', 'true', 'cat']) {
    const file = findProgram(prog);
    if (!file) continue;
    fs.copyFileSync(file, path.join(dir, 'bin', prog));
    fs.chmodSync(path.join(dir, 'bin', prog), 0o755);
    const ldd = spawnSync('ldd', [file], { encoding: 'utf8' });
    for (const m of (ldd.stdout ?? '').matchAll(/(\/\S+)\s+\(0x/g)) {
      const lib = m[1]!;
      fs.mkdirSync(path.join(dir, path.dirname(lib)), { recursive: true });
      fs.copyFileSync(fs.realpathSync(lib), path.join(dir, lib));
    }
  }
  return dir;
}

/** podman runs the folder itself; docker needs it as an image, imported from a tar (no registry either way). */
function rootFor(engine: 'podman' | 'docker', rootfs: string): ContainerRoot {
  if (engine === 'podman') return { rootfs };
  const image = 'agent-board-test-root:latest';
  execFileSync('sh', ['-c', `tar -C "${rootfs}" -c . | docker import - ${image}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  return { image };
}

const rootfs = hostRootfs(path.join(tmp, 'rootfs'));
let probe: ContainerProbe = { ok: false, line: 'neither podman nor docker is installed' };
const reasons: string[] = [];
for (const engine of ['podman', 'docker'] as const) {
  if (!findProgram(engine)) continue;
  let root: ContainerRoot;
  try {
    root = rootFor(engine, rootfs);
  } catch (err) {
    const stderr = String((err as { stderr?: unknown }).stderr ?? '').trim().split('\n')[0];
    reasons.push(`${engine} cannot import the test root: ${stderr || (err as Error).message.split('\n')[0]}`);
    continue;
  }
  probe = await probeContainer(root, process.env, scheduler, { engines: [engine] });
  if (probe.ok) break;
  reasons.push(probe.line.replace(/^cannot sandbox in a container: /, ''));
}
if (!probe.ok && reasons.length) probe = { ok: false, line: reasons.join('; ') };
const engineRuns = probe.ok;
const title = 'container backend: a session in a real container (podman or docker)';
if (!probe.ok) {
  const bar = '!'.repeat(100);
  console.error(`\n${bar}\n!! ${title}: NOT RUN: no engine runs a container here: ${probe.line}\n${bar}\n`);
}

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.skipIf(!engineRuns)(engineRuns ? title : `${title}: NOT RUN: ${probe.ok ? '' : probe.line}`, { timeout: 60_000 }, () => {
  let wt: string;
  let sessionDir: string;
  let outside: string;
  beforeAll(() => {
    wt = path.join(tmp, 'repo-wt', 'ab12');
    sessionDir = path.join(tmp, 'home', '.agent-board', 'sessions', 'ab12');
    outside = path.join(tmp, 'elsewhere');
    for (const d of [wt, sessionDir, outside]) fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(sessionDir, 'sock'), '');
  });

  it('runs at the worktree path: a file written there is the host\'s, one written outside the mounts never reaches the host', async () => {
    if (!probe.ok) throw new Error('unreachable');
    const engine = probe.engine;
    const script = `pwd > here.txt; echo inside > made-inside.txt; echo leak > ${outside}/leak.txt 2>/dev/null; echo DONE`;
    const l = containerLaunch({
      ready: { engine, program: probe.program, root: rootFor(engine, rootfs), from: 'test' },
      sessionId: `t${process.pid}`,
      places: { cwd: wt, sessionDir, socketPath: path.join(sessionDir, 'sock'), roomDir: null, stateDir: null, git: null, denied: [] },
      userHome: path.join(tmp, 'home'),
      uid: process.getuid!(),
      gid: process.getgid!(),
      network: 'none',
      env: { ...process.env, TERM: 'xterm-256color' },
      proxy: null,
      command: 'sh',
      args: ['-c', script],
    });
    if (!l.ok) throw new Error(l.line);
    // --rm removes it when it ends; this is the runner's way to end one whose engine client it lost, here a no-op.
    onTestFinished(() => void spawnSync(l.launch.command, removeContainerArgs(l.launch.name), { stdio: 'ignore', timeout: 30_000 }));
    const p = pty.spawn(l.launch.command, l.launch.args, { cols: 80, rows: 24, env: l.launch.env, cwd: wt });
    let out = '';
    p.onData((d) => (out += d));
    const code = await new Promise<number>((resolve) => p.onExit((e) => resolve(e.exitCode)));
    expect(out, out).toContain('DONE');
    expect(code).toBe(0);
    expect(fs.readFileSync(path.join(wt, 'here.txt'), 'utf8').trim()).toBe(wt);
    expect(fs.readFileSync(path.join(wt, 'made-inside.txt'), 'utf8').trim()).toBe('inside');
    expect(fs.statSync(path.join(wt, 'made-inside.txt')).uid).toBe(process.getuid!());
    expect(fs.existsSync(path.join(outside, 'leak.txt'))).toBe(false);
  });
});

describe('container backend: the preflight refuses in one line, nothing started', () => {
  const oneLine = (r: { ok: boolean; line?: string }) => {
    expect(r.ok).toBe(false);
    expect(r.line).toMatch(/^cannot sandbox in a container: /);
    expect(r.line).not.toContain('\n');
    return r.line!;
  };
  const setting = { backend: 'container' as const, network: 'none' as const };

  it("an image this machine does not have: this machine's real engines say so (or that they cannot run at all)", async () => {
    const r = await sandboxPreflight({ ...setting, image: 'agent-board-test-no-such-image:none' }, process.env, scheduler, 'linux', tmp);
    const line = oneLine(r);
    if (!findProgram('podman') && !findProgram('docker')) expect(line).toContain('neither podman nor docker is installed');
    else expect(line).toMatch(/(podman|docker) cannot run agent-board-test-no-such-image:none here: /);
    console.log(`refusal on this machine: ${line}`);
  });

  it('no image named and no devcontainer.json: says how to give one', async () => {
    const repo = path.join(tmp, 'plain-repo');
    fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
    const line = oneLine(await sandboxPreflight(setting, process.env, scheduler, 'linux', repo));
    expect(line).toBe('cannot sandbox in a container: no image: name one (--sandbox container:IMAGE) or put a devcontainer.json with "image" in the repository');
  });

  it("a devcontainer.json that builds its image: not done yet, in one line naming the file", async () => {
    const repo = path.join(tmp, 'built-repo');
    fs.mkdirSync(path.join(repo, '.git'), { recursive: true });
    fs.mkdirSync(path.join(repo, '.devcontainer'));
    fs.writeFileSync(path.join(repo, '.devcontainer', 'devcontainer.json'), '{ "build": { "dockerfile": "Dockerfile" } }');
    const line = oneLine(await sandboxPreflight(setting, process.env, scheduler, 'linux', repo));
    expect(line).toContain(`${path.join(repo, '.devcontainer', 'devcontainer.json')} builds its image from a Dockerfile`);
  });

  it('neither engine on PATH', async () => {
    const empty = path.join(tmp, 'empty-bin');
    fs.mkdirSync(empty, { recursive: true });
    const line = oneLine(await sandboxPreflight({ ...setting, image: 'alpine' }, { ...process.env, PATH: empty }, scheduler, 'linux', tmp));
    expect(line).toBe('cannot sandbox in a container: neither podman nor docker is installed (apt-get install podman), or use --sandbox (bubblewrap)');
  });

  it("both installed and neither able (this VM's own words, by stand-ins): each engine's reason in the one line", async () => {
    const bin = path.join(tmp, 'standin-bin');
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(path.join(bin, 'podman'), "#!/bin/sh\necho 'Error: crun: setrlimit `RLIMIT_NOFILE`: Operation not permitted: OCI permission denied' >&2\nexit 126\n", { mode: 0o755 });
    fs.writeFileSync(path.join(bin, 'docker'), "#!/bin/sh\necho 'docker: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?' >&2\necho >&2\necho \"Run 'docker run --help' for more information\" >&2\nexit 125\n", { mode: 0o755 });
    const line = oneLine(await sandboxPreflight({ ...setting, image: 'alpine:3.20' }, { ...process.env, PATH: bin }, scheduler, 'linux', tmp));
    expect(line).toBe(
      'cannot sandbox in a container: podman cannot run alpine:3.20 here: crun: setrlimit `RLIMIT_NOFILE`: Operation not permitted: OCI permission denied; docker cannot run alpine:3.20 here: Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?',
    );
  });

  it('network allowlist: the image must have socat for the bridge (a stand-in engine that runs the check with the real sh)', async () => {
    const bin = path.join(tmp, 'check-bin');
    fs.mkdirSync(bin, { recursive: true });
    // Runs what follows the image as the container would, on this machine, with a PATH that has no socat.
    fs.writeFileSync(path.join(bin, 'podman'), `#!/bin/sh\nshift 6\nPATH=/nonexistent exec /bin/sh "$@"\n`, { mode: 0o755 });
    const line = oneLine(await sandboxPreflight({ backend: 'container', network: 'allowlist', image: 'img' }, { ...process.env, PATH: bin }, scheduler, 'linux', tmp));
    expect(line).toBe('cannot sandbox in a container: podman cannot run img here: socat is not in the image');
  });
});
