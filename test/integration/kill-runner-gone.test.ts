/**
 * `agent-board kill` when the runner dies under it: it returns as soon as the runner process is
 * gone (its connection closed and its pid dead), not after its full wait (TERMINATE_GRACE_MS + 3 s),
 * with the same report and exit code as before: the session did not exit, its runner may be stuck.
 */
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TERMINATE_GRACE_MS } from '../../src/core/session-timings.js';
import { EXIT } from '../../src/state/errors.js';
import { isPidAlive, readHostFile } from '../../src/state/host-store.js';
import { hostFile, runnerLog } from '../../src/state/paths.js';
import { cli, cliAsync, destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';

let home: string;
beforeEach(() => {
  home = makeHome('ab-kill-');
});
afterEach(() => destroyHome(home));

describe('kill', () => {
  it('returns as soon as the runner is gone, with the output it always gave', async () => {
    // A program that ignores the terminate: kill would wait out the grace period and more.
    const id = newSession(home, ['--name', 'stubborn', '--', 'sh', '-c', "trap '' TERM HUP; echo armed; while :; do sleep 1; done"]);
    await waitFor('armed', () => cli(home, ['peek', 'stubborn']).stdout.includes('armed'));
    const runnerPid = readHostFile(hostFile(home, id))!.runnerPid!;
    const log = runnerLog(home, id);
    const killing = cliAsync(home, ['kill', 'stubborn']);
    // The runner has the terminate: now it dies at once (as a crash or an OOM kill would).
    await waitFor('terminate asked', () => fs.existsSync(log) && fs.readFileSync(log, 'utf8').includes('terminate requested'), 10_000, 10);
    const diedAt = Date.now();
    process.kill(runnerPid, 'SIGKILL');
    const r = await killing;
    const took = Date.now() - diedAt;
    expect(isPidAlive(runnerPid)).toBe(false);
    expect(took).toBeLessThan(4000); // the old wait ran TERMINATE_GRACE_MS + 3 s past the terminate
    expect(TERMINATE_GRACE_MS + 3000).toBeGreaterThan(4000);
    expect(r.code).toBe(EXIT.failure);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('agent-board: stubborn did not exit; its runner may be stuck (see agent-board ls)\n');
  });
});
