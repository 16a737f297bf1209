/**
 * `doctor`'s sandbox check (src/client/doctor/doctor-sandbox.ts) against real programs: bubblewrap
 * itself where it is installed (.ci/run installs it), and tiny stand-ins for the machines we cannot
 * be: one without bwrap, one whose kernel refuses a user namespace to users (bwrap's own words).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxCheck } from '../../src/client/doctor/doctor-sandbox.js';
import { containerCheck } from '../../src/client/doctor/doctor-container.js';
import { findProgram } from '../../src/state/process/find-program.js';
import { realScheduler } from '../../src/state/real-time.js';

const scheduler = realScheduler();
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-doctor-sandbox-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A folder holding only a `bwrap` script with this body, for PATH. */
function fakeBwrap(name: string, body: string): string {
  const bin = path.join(dir, name);
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'bwrap'), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return bin;
}

describe("doctor's sandbox check", () => {
  it('no bwrap on PATH: a warn that says to install bubblewrap', async () => {
    const empty = path.join(dir, 'empty');
    fs.mkdirSync(empty);
    const c = await sandboxCheck({ PATH: empty }, scheduler);
    expect(c).toMatchObject({ check: 'sandbox', status: 'warn', message: expect.stringContaining('bubblewrap (bwrap) is not installed') as string, fix: expect.stringContaining('apt-get install bubblewrap') as string });
  });

  it('a kernel that refuses user namespaces to users: a warn with bwrap\'s words and the sysctl that allows them', async () => {
    const bin = fakeBwrap(
      'refused',
      'if [ "$1" = --version ]; then echo "bubblewrap 0.8.0"; exit 0; fi\necho "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2\nexit 1',
    );
    const c = await sandboxCheck({ PATH: `${bin}:/usr/bin:/bin` }, scheduler);
    expect(c.status).toBe('warn');
    expect(c.message).toContain('bubblewrap 0.8.0');
    expect(c.message).toContain('cannot make a sandbox here: exit code 1: bwrap: No permissions to creating new namespace');
    expect(c.fix).toContain('kernel.unprivileged_userns_clone=1');
  });

  it('bwrap makes a sandbox but socat is missing: a warn that --network allowlist cannot work, all and none can', async () => {
    const bin = fakeBwrap('works', 'if [ "$1" = --version ]; then echo "bubblewrap 0.8.0"; fi\nexit 0');
    const c = await sandboxCheck({ PATH: bin }, scheduler);
    expect(c).toMatchObject({ status: 'warn', message: expect.stringContaining('a sandbox can be made here (user, pid and network namespaces), but --network allowlist cannot: socat is not installed (all and none can)') as string, fix: expect.stringContaining('apt-get install socat') as string });
  });

  it('not Linux: says bubblewrap is Linux\'s, whatever is on PATH', async () => {
    const c = await sandboxCheck({ PATH: '/usr/bin:/bin' }, scheduler, 'darwin');
    expect(c).toEqual({ check: 'sandbox', status: 'warn', message: "no sandbox on darwin: agent-board sandboxes with bubblewrap, which is Linux's" });
  });

  const bwrap = findProgram('bwrap', { env: process.env });
  if (!bwrap) console.log('\n!!! doctor sandbox: the real bubblewrap test is NOT RUN: bwrap is not installed (.ci/run installs it: apt-get install bubblewrap) !!!\n');
  it.skipIf(!bwrap)(bwrap ? 'the real bubblewrap makes a sandbox here: ok, with its version' : 'the real bubblewrap: NOT RUN (bwrap is not installed)', async () => {
    const c = await sandboxCheck(process.env, scheduler);
    expect(c).toMatchObject({ check: 'sandbox', status: 'ok', message: expect.stringMatching(/^bubblewrap \d+\.\d+\.\d+ \(.*bwrap\): a sandbox can be made here/) as string });
  });
});

/** A folder holding only `name` as a script with this body, for PATH. */
function fakeTool(dirName: string, name: string, body: string): string {
  const bin = path.join(dir, dirName);
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return bin;
}

describe("doctor's container check (--sandbox container)", () => {
  it('neither podman nor docker: ok, saying the backend is not here (it is optional)', async () => {
    const empty = path.join(dir, 'no-engines');
    fs.mkdirSync(empty);
    expect(await containerCheck({ PATH: empty }, scheduler)).toEqual({ check: 'container', status: 'ok', message: 'neither podman nor docker is installed: no --sandbox container here (bubblewrap sandboxes need neither)' });
  });

  it("podman that cannot start a container: a warn with podman's own words", async () => {
    const bin = fakeTool('podman-broken', 'podman', 'echo "Error: crun: setrlimit RLIMIT_NOFILE: Operation not permitted: OCI permission denied" >&2\nexit 126');
    const c = await containerCheck({ PATH: bin }, scheduler);
    expect(c).toMatchObject({ check: 'container', status: 'warn', message: '--sandbox container cannot work here: podman cannot run the folder / here: crun: setrlimit RLIMIT_NOFILE: Operation not permitted: OCI permission denied' });
  });

  it('podman that runs the probe container: ok', async () => {
    const bin = fakeTool('podman-works', 'podman', '[ "$1" = run ] && exit 0\nexit 1');
    const c = await containerCheck({ PATH: bin }, scheduler);
    expect(c).toEqual({ check: 'container', status: 'ok', message: `podman (${path.join(bin, 'podman')}) runs a container here: --sandbox container can work` });
  });
});
