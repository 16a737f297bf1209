/**
 * A container a SIGKILLed runner left running holds the session's name (`agent-board-<id>`), and
 * the next `run` with that name would fail: the runner removes it before it runs the session's
 * container. No engine runs a container on every machine (docs/sandbox.md, "Container backend"),
 * so the engine here is a stand-in `podman` on the runner's PATH that logs what it is asked and
 * answers as podman would; the runner, its preflight and its launch are the real ones.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SandboxRig } from './sandbox-rig.js';

let rig: SandboxRig;
let bin: string;
let calls: string;
const savedPath = process.env.PATH;
beforeAll(() => {
  rig = new SandboxRig();
  bin = path.join(rig.root, 'engine-bin');
  calls = path.join(rig.root, 'engine-calls');
  fs.mkdirSync(bin);
  // `run ... true` is the preflight's probe; any other run is the session's container.
  fs.writeFileSync(path.join(bin, 'podman'), `#!/bin/sh\necho "$*" >> ${calls}\ncase "$1" in\n  rm) echo "$3"; exit 0 ;;\n  run) echo CONTAINER-RAN; exit 0 ;;\nesac\nexit 0\n`, { mode: 0o755 });
  process.env.PATH = `${bin}:${savedPath}`;
});
afterAll(() => {
  process.env.PATH = savedPath;
  rig.dispose();
});

it("the session's container runs only after a leftover of the same name is removed", async () => {
  const rec = await rig.start('echo hi', { sandbox: { backend: 'container', image: 'example/agent:1', network: 'none' } });
  const done = await rig.exited(rec.id);
  const lines = fs.readFileSync(calls, 'utf8').trim().split('\n');
  const name = `agent-board-${rec.id}`;
  const removed = lines.findIndex((l) => l === `rm --force ${name}`);
  const ran = lines.findIndex((l) => l.startsWith('run ') && l.includes(name));
  expect(removed, lines.join('\n')).toBeGreaterThanOrEqual(0);
  expect(ran, lines.join('\n')).toBeGreaterThan(removed);
  expect(done.exitCode).toBe(0);
  expect(fs.readFileSync(path.join(rig.board, 'sessions', rec.id, 'runner.log'), 'utf8')).toContain(`removed the container ${name} an earlier runner left running`);
});
