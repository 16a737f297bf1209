/**
 * config.json's `sandbox` reaches the runner's sandbox (docs/sandbox.md, "Turning it on"): a path
 * in its `denyRead` (`~/...`, the user's home) is hidden from a sandboxed program, which reads it
 * without that line. Real runners, bubblewrap, a fake home outside /tmp (sandbox-rig.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SandboxRig } from './sandbox-rig.js';

let rig: SandboxRig;
let config: string;
const saved = process.env.AGENT_BOARD_CONFIG_HOME;
beforeAll(() => {
  rig = new SandboxRig();
  config = path.join(rig.root, 'config');
  fs.mkdirSync(config);
  fs.mkdirSync(path.join(rig.home, 'notes'));
  fs.writeFileSync(path.join(rig.home, 'notes', 'secret.txt'), 'NOTE-SECRET-7\n');
  process.env.AGENT_BOARD_CONFIG_HOME = config;
});
afterAll(() => {
  if (saved === undefined) delete process.env.AGENT_BOARD_CONFIG_HOME;
  else process.env.AGENT_BOARD_CONFIG_HOME = saved;
  rig.dispose();
});

const READ = 'cat "$HOME/notes/secret.txt"; echo "rc=$?"';

it("config.json's denyRead hides ~/notes from a sandboxed program; without it the program reads it", async () => {
  fs.writeFileSync(path.join(config, 'config.json'), '{}');
  const open = await rig.run(READ);
  expect(open.screen).toContain('NOTE-SECRET-7');

  fs.writeFileSync(path.join(config, 'config.json'), JSON.stringify({ sandbox: { denyRead: ['~/notes'] } }));
  const hidden = await rig.run(READ);
  expect(hidden.screen).toContain('rc=1');
  expect(hidden.screen).not.toContain('NOTE-SECRET-7');
});
