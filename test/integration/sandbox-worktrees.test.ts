/**
 * A sandboxed worktree session among others (docs/sandbox.md): other sessions' worktrees are
 * hidden, the worktree's setup command runs inside the sandbox too, and a restart makes the
 * sandbox again, with the first run's commits kept.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cli } from '../helpers/home.js';
import { SandboxRig } from './sandbox-rig.js';
import { sh } from './worktree-new-helpers.js';

let rig: SandboxRig;
beforeAll(() => {
  rig = new SandboxRig();
});
afterAll(() => rig.dispose());

it('another session\'s worktree is hidden: neither read nor written', async () => {
  const theirs = rig.worktree();
  fs.writeFileSync(path.join(theirs.path, 'their-notes.txt'), 'THEIR-WORK\n');
  const other = await rig.start('sleep 60', { worktree: theirs, sandbox: null });
  try {
    const { screen } = await rig.run(`cat ${theirs.path}/their-notes.txt; echo x > ${theirs.path}/pwn; ls -A ${theirs.path} | wc -l`, { worktree: rig.worktree() });
    expect(screen).not.toContain('THEIR-WORK');
    expect(fs.existsSync(path.join(theirs.path, 'pwn'))).toBe(false);
  } finally {
    cli(rig.board, ['kill', other.id]);
  }
});

it('the worktree\'s setup command runs inside the sandbox', async () => {
  const w = rig.worktree();
  const marker = path.join(rig.outside, 'setup-wrote');
  const rec = await rig.start('echo PROGRAM-RAN', { worktree: w, setup: `echo x > ${marker}; echo x > in-worktree.txt` });
  await rig.exited(rec.id);
  expect(rig.screen(rec.id)).toContain('PROGRAM-RAN');
  expect(fs.existsSync(marker)).toBe(false);
  expect(fs.existsSync(path.join(w.path, 'in-worktree.txt'))).toBe(true);
});

it('restart makes the sandbox again; the first run\'s commit is kept and the second lands on top', async () => {
  const w = rig.worktree();
  const script = 'n=$(ls run-*.txt 2>/dev/null | wc -l); echo x > run-$n.txt && git add -A && git commit -q -m "run $n" && echo "COMMITTED-$n"; echo x > ../outside/escape-$n; echo "escape=$?"';
  const rec = await rig.start(script, { worktree: w });
  await rig.exited(rec.id);
  expect(rig.screen(rec.id)).toContain('COMMITTED-0');
  const r = cli(rig.board, ['restart', rec.id]);
  expect(r.stderr).toBe('');
  await rig.waitScreen(rec.id, 'COMMITTED-1');
  await rig.exited(rec.id);
  expect(rig.screen(rec.id)).toContain('escape=2');
  expect(sh(rig.repo, 'log', '--format=%s', w.branch).trim().split('\n').slice(0, 2)).toEqual(['run 1', 'run 0']);
  expect(fs.readdirSync(rig.outside).filter((f) => f.startsWith('escape'))).toEqual([]);
  // explain says which branch it may move, and that it is the only one.
  expect(cli(rig.board, ['explain', rec.id]).stdout).toMatch(new RegExp(`writes +${w.path}, the branch ${w.branch} \\(no other\\)`));
});
