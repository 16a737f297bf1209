/**
 * A sandboxed session behaves as an unsandboxed one at its terminal (docs/sandbox.md): Ctrl-C
 * reaches the program as SIGINT (bwrap ignores it and lives on), a resize reaches it as SIGWINCH
 * with the new size, and its exit code is the record's. And without bubblewrap, the runner
 * refuses: the program never runs unsandboxed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runnerLog } from '../../src/state/paths.js';
import { listSessions } from '../../src/state/host-store.js';
import { cli } from '../helpers/home.js';
import { RawClient } from '../helpers/raw-client.js';
import { SandboxRig, NONE } from './sandbox-rig.js';

let rig: SandboxRig;
beforeAll(() => {
  rig = new SandboxRig();
});
afterAll(() => rig.dispose());

describe.each([['sandboxed', NONE], ['unsandboxed', null]] as const)('%s', (_name, sandbox) => {
  it('Ctrl-C in cooked mode reaches the program as SIGINT, and the program ends as it chooses', async () => {
    const rec = await rig.start('trap "echo GOT-INT; exit 5" INT; echo READY; sleep 30; echo NO-SIGNAL', { sandbox });
    await rig.waitScreen(rec.id, 'READY');
    const c = await RawClient.hello(rig.board, rec.id);
    try {
      c.send({ type: 'input', data: '\x03' });
      const done = await rig.exited(rec.id);
      expect(rig.screen(rec.id)).toContain('GOT-INT');
      expect(done.exitCode).toBe(5);
    } finally {
      c.close();
    }
  });

  it('a resize reaches the program as SIGWINCH with the new size; its exit code is the record\'s', async () => {
    const rec = await rig.start('trap "echo GOT-WINCH; stty size; exit 3" WINCH; echo READY; while :; do sleep 0.1; done', { sandbox });
    await rig.waitScreen(rec.id, 'READY');
    const c = await RawClient.hello(rig.board, rec.id);
    try {
      c.send({ type: 'resize', cols: 91, rows: 27 });
      const done = await rig.exited(rec.id);
      const screen = rig.screen(rec.id);
      expect(screen).toContain('GOT-WINCH');
      expect(screen).toContain('27 91');
      expect(done.exitCode).toBe(3);
    } finally {
      c.close();
    }
  });
});

it('without bubblewrap on PATH the runner refuses, with one line, and the program never runs', async () => {
  const marker = path.join(rig.outside, 'ran-unsandboxed');
  const saved = process.env.PATH;
  // The runner's PATH (it takes the test's environment) has no bwrap: the machine cannot sandbox.
  process.env.PATH = '/nonexistent';
  // The start fails with the runner's line and exit 17 (src/client/session/runner-start.ts); the record says it too.
  let failed: unknown;
  try {
    await rig.start(`echo ran > ${marker}`);
  } catch (err) {
    failed = err;
  } finally {
    process.env.PATH = saved;
  }
  expect(failed).toMatchObject({ exitCode: 17, message: expect.stringMatching(/^session \S+ did not start: cannot sandbox: bubblewrap \(bwrap\) is not installed/) as string });
  const name = /^session (\S+) /.exec((failed as Error).message)![1]!;
  const id = listSessions(rig.board).find((s) => s.name === name)!.id;
  const done = await rig.exited(id);
  expect(done.exitCode).toBeNull();
  expect(done.previewLine).toBe('cannot sandbox: bubblewrap (bwrap) is not installed (apt-get install bubblewrap, dnf install bubblewrap)');
  expect(fs.readFileSync(runnerLog(rig.board, id), 'utf8')).toContain('bubblewrap (bwrap) is not installed');
  expect(fs.existsSync(marker)).toBe(false);
});

it('agent-board\'s own commands work from inside: a chat post, a hook, a send to itself', async () => {
  const rec = await rig.start('agent-board chat post "hello from inside" >/dev/null; echo "post=$?"; agent-board hook claude Stop >/dev/null; echo "hook=$?"; agent-board chat read | tail -1; echo END-OF-CHECKS');
  await rig.exited(rec.id);
  const screen = rig.screen(rec.id);
  expect(screen).toContain('END-OF-CHECKS');
  expect(screen).toContain('post=0');
  expect(screen).toContain('hook=0');
  expect(screen).toContain('hello from inside');
});

it("a TMPDIR outside /tmp, read-only inside, becomes the sandbox's own /tmp, where the program can write", async () => {
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = rig.outside;
  try {
    const { screen } = await rig.run('echo "T=$TMPDIR"; touch "$TMPDIR/scratch" && echo TMP-WRITABLE');
    expect(screen).toContain('T=/tmp');
    expect(screen).toContain('TMP-WRITABLE');
    expect(fs.existsSync(path.join(rig.outside, 'scratch'))).toBe(false);
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
});

it("a chat post from inside carries the mentions its runners wake on, though the room's other sessions are out of its sight", async () => {
  const peer = await rig.start('sleep 60', { sandbox: null });
  try {
    const rec = await rig.run(`agent-board chat post "over to you @${peer.name}, and @nobody-here" >/dev/null; echo post=$?`);
    expect(rec.screen).toContain('post=0');
    const last = JSON.parse(cli(rig.board, ['chat', 'read', '--json']).stdout.trim().split('\n').pop()!) as { mentions: string[] };
    expect(last.mentions).toContain(peer.name);
  } finally {
    cli(rig.board, ['kill', peer.id]);
  }
});
