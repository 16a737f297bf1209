/**
 * The session's command journal against a real runner: an unwritable journal
 * refuses prompts (journal_unavailable) while the runner keeps serving, and
 * the journal's GC keeps the file bounded without forgetting recent prompts.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StatusMsg } from '../../src/core/protocol/runner-messages.js';
import { controlJournalFile } from '../../src/state/paths.js';
import { count, journalLines, readHost, received, recorderArgs, recorderReady, useControlHome } from '../helpers/control.js';
import { cliAsync, newSession, waitFor } from '../helpers/home.js';

let home: string;
let dir: string;
const open = useControlHome((h, d) => ((home = h), (dir = d)));

/** Ways to make the journal unwritable that work even as root, and how to undo them. */
const BREAKERS = [
  {
    name: 'a symlink to /dev/full (a full disk)',
    breakIt: (file: string) => fs.symlinkSync('/dev/full', file),
    fix: (file: string) => fs.unlinkSync(file),
  },
  {
    name: 'a directory in its place',
    breakIt: (file: string) => fs.mkdirSync(file),
    fix: (file: string) => fs.rmdirSync(file),
  },
];

describe('an unwritable journal', () => {
  for (const b of BREAKERS) {
    it(`(${b.name}) refuses prompts with journal_unavailable, types nothing, keeps serving, and works again once fixed`, async () => {
      const id = newSession(home, recorderArgs(dir));
      await recorderReady(dir);
      const file = controlJournalFile(home, id);
      b.breakIt(file);
      const c = await open(id);

      const refused = await c.prompt('<refused-1>', { submit: true });
      expect(refused.ack).toMatchObject({ type: 'cmd_ack', commandId: refused.commandId, stage: 'rejected', code: 'journal_unavailable' });
      expect(refused.ack.message).toMatch(/journal/);
      expect(c.acks(refused.commandId)).toHaveLength(1); // no accepted before it

      // The CLI says it in one line on each stream, and does not claim it was typed.
      const cliRun = await cliAsync(home, ['send', id, '<refused-2>', '--timeout', '5s']);
      expect(cliRun.code).not.toBe(0);
      expect(cliRun.code).not.toBe(8);
      expect(cliRun.stdout).toMatch(/^not typed: "<refused-2>" \(\+ Enter\) into \S+; command [0-9a-f]{8}…\n$/);
      expect(cliRun.stderr.trim().split('\n')).toHaveLength(1);
      expect(cliRun.stderr).toMatch(/journal/);

      // Still serving: legacy input, status, and enveloped commands that need no journal.
      c.raw.send({ type: 'input', data: '<legacy-still-works>' });
      await waitFor('legacy typed', () => received(dir).includes('<legacy-still-works>'));
      c.raw.send({ type: 'status' });
      expect((await c.waitMsg<StatusMsg>((m) => m.type === 'status')).host).toMatchObject({ id, status: 'running' });
      const rs = c.send({ type: 'resize', cols: 90, rows: 30 });
      expect(await c.ack(rs, 'applied')).toMatchObject({ cols: 90, rows: 30 });
      expect(received(dir)).not.toContain('<refused-');
      const r = await c.reconcile([refused.commandId]);
      expect(r.commands).toEqual([{ commandId: refused.commandId, status: 'unknown' }]); // refusals are not remembered
      expect(r.unresolved).toEqual([]);

      b.fix(file);
      const ok = await c.prompt('<after-fix>');
      expect(ok.ack.stage).toBe('applied');
      expect(c.acks(ok.commandId).map((a) => a.stage)).toEqual(['accepted', 'applied']);
      expect(fs.lstatSync(file).isFile()).toBe(true);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(journalLines(home, id).map((l) => [l.kind, l.commandId])).toEqual([['accepted', ok.commandId], ['applied', ok.commandId]]);
      // The refused prompt may be sent again under its id now; it is typed once.
      const again = await c.prompt('<refused-1>', { commandId: refused.commandId });
      expect(again.ack.stage).toBe('applied');
      await waitFor('typed', () => received(dir).includes('<refused-1>'));
      expect(count(received(dir), '<refused-1>')).toBe(1);
      expect(received(dir)).not.toContain('<refused-2>');
      expect(readHost(home, id).status).toBe('running');
    });
  }
});

describe('journal GC', () => {
  it('600 prompts through one connection: the file never passes 512 lines + 1, ends at most 512, and recent prompts are still known as applied (also after a restart)', async () => {
    const id = newSession(home, recorderArgs(dir));
    await recorderReady(dir);
    const c = await open(id);
    const file = controlJournalFile(home, id);
    const ids: string[] = [];
    let max = 0;
    let drops = 0;
    let last = 0;
    for (let i = 0; i < 600; i++) {
      const p = await c.prompt(`<gc-${i}>`);
      expect(p.ack.stage).toBe('applied');
      ids.push(p.commandId);
      const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
      max = Math.max(max, lines);
      if (lines < last) drops++;
      last = lines;
    }
    expect(max).toBeLessThanOrEqual(513);
    expect(drops).toBeGreaterThanOrEqual(2); // it was compacted, more than once
    const lines = journalLines(home, id);
    expect(lines.length).toBeLessThanOrEqual(512);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // Whole commands are kept: every kept command has its accepted and its applied record.
    const kept = new Set(lines.map((l) => l.commandId as string));
    for (const k of kept) expect(lines.filter((l) => l.commandId === k).map((l) => l.kind)).toEqual(['accepted', 'applied']);
    expect(kept.has(ids[599]!)).toBe(true);

    const recent = ids.slice(-100);
    const now = await c.reconcile([...recent, ids[0]!]);
    expect(now.commands.every((x) => x.status === 'applied')).toBe(true); // the runner remembers beyond the file
    expect(now.unresolved).toEqual([]);

    // A new runner knows only what the file kept: the recent ones, not the first.
    const restarted = await cliAsync(home, ['restart', id]);
    expect(restarted.code).toBe(0);
    await recorderReady(dir, 2);
    const d = await open(id);
    expect(d.hello.generation).not.toBe(c.hello.generation);
    const after = await d.reconcile([...recent, ids[0]!]);
    expect(after.commands.slice(0, 100).every((x) => x.status === 'applied')).toBe(true);
    expect(after.commands[100]).toEqual({ commandId: ids[0], status: 'unknown' });
    expect(after.unresolved).toEqual([]);
    // Each prompt reached the first program exactly once.
    const got = received(dir);
    const counts = Array.from({ length: 600 }, (_, i) => count(got, `<gc-${i}>`));
    expect(counts.every((n) => n === 1)).toBe(true);
  });
});
