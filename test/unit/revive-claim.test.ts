/**
 * One revive at a time per session (src/state/revive-claim.ts): a live claimer keeps it, a dead
 * one's (or another boot's) claim is taken over, a half-made one is respected while it is young.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionDir } from '../../src/state/paths.js';
import { claimRevive } from '../../src/state/revive-claim.js';
import { bootId, processStartTime } from '../../src/state/proc-identity.js';
import { FakeTime } from '../helpers/fake-time.js';

let home: string;
const ID = 'a1b2c3d4';
const file = () => path.join(sessionDir(home, ID), 'revive.lock');
beforeEach(() => {
  home = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-claim-'));
  fs.mkdirSync(sessionDir(home, ID), { recursive: true });
});
afterEach(() => fs.rmSync(home, { recursive: true, force: true }));

const now = () => new FakeTime(Date.now());

describe('the revive claim', () => {
  it('is one holder at a time, and free again once released', () => {
    const a = claimRevive(home, ID, now());
    expect(a.ok).toBe(true);
    expect(claimRevive(home, ID, now())).toEqual({ ok: false, holder: process.pid });
    if (a.ok) a.release();
    expect(fs.existsSync(file())).toBe(false);
    const b = claimRevive(home, ID, now());
    expect(b.ok).toBe(true);
  });

  it("a dead claimer's claim, or one from another boot, is taken over", () => {
    const dead = spawnSync('true').pid!; // exited and reaped: its pid names no process now
    fs.writeFileSync(file(), JSON.stringify({ pid: dead, boot: bootId(), start: '1' }));
    expect(claimRevive(home, ID, now()).ok).toBe(true);
    fs.rmSync(file());
    fs.writeFileSync(file(), JSON.stringify({ pid: process.pid, boot: '00000000-0000-4000-8000-000000000000', start: processStartTime('self') }));
    expect(claimRevive(home, ID, now()).ok).toBe(true);
  });

  it('a half-made claim is respected while young, taken over once old', () => {
    fs.writeFileSync(file(), '');
    expect(claimRevive(home, ID, now())).toEqual({ ok: false, holder: 0 });
    const later = now();
    later.advance(6_000);
    expect(claimRevive(home, ID, later).ok).toBe(true);
  });
});
