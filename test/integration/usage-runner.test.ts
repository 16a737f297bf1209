/**
 * A real runner keeps its session's `usage` in host.json fresh from the transcript (docs/usage.md):
 * read when a turn ends, only what the file grew by, a line cut mid-write taken once it is whole,
 * a bad line counted; `explain` says which file the figures came from.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionUsage } from '../../src/core/usage/usage-types.js';
import { readHostFile } from '../../src/state/host-store.js';
import { cli, destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';

let home: string | null = null;
afterEach(() => {
  if (home) destroyHome(home);
  home = null;
});

const msg = (model: string, input: number, output: number) => JSON.stringify({ at: new Date().toISOString(), model, tokens: { input, output, cacheWrite: 0, cacheRead: 0 } });

describe("the runner's usage", () => {
  it('follows a transcript the test appends to, turn by turn, into host.json, ls and explain', async () => {
    const h = (home = makeHome());
    const dir = path.join(h, 'transcripts');
    fs.mkdirSync(dir);
    const config = path.join(h, 'config');
    fs.mkdirSync(config);
    const env = { AGENT_BOARD_TEST_USAGE_DIR: dir, AGENT_BOARD_CONFIG_HOME: config };
    const id = newSession(h, ['--name', 'spender', '--', '/bin/sh']);
    // newSession runs without the env: start the session that reads it.
    const r = cli(h, ['new', '--name', 'reader', '--', '/bin/sh'], { env });
    expect(r.code, r.stderr).toBe(0);
    const rid = r.stdout.trim();
    const transcript = path.join(dir, `${rid}.jsonl`);
    const usage = (): SessionUsage | undefined => readHostFile(path.join(h, 'sessions', rid, 'host.json'))?.usage;
    /** A turn: the shell prints, goes busy, then quiet (idle): the turn's end reads the transcript. */
    const turn = (text: string) => {
      const s = cli(h, ['send', 'reader', `echo ${text}`], { env });
      expect(s.code, s.stderr).toBe(0);
    };

    fs.writeFileSync(transcript, `${msg('claude-sonnet-4-5', 1_000_000, 0)}\n`);
    turn('one');
    const first = await waitFor('the first figures', () => (usage()?.messages === 1 ? usage() : null), 20_000, 100);
    expect(first).toMatchObject({ tokens: { input: 1_000_000, output: 0 }, costUsd: 3, file: transcript, skipped: 0 });

    // A message cut mid-write, and a line nobody can read: the cut one counts once it is whole.
    const second = msg('claude-sonnet-4-5', 0, 1_000_000);
    fs.appendFileSync(transcript, `not json\n${second.slice(0, 20)}`);
    turn('two');
    await waitFor('the bad line counted', () => usage()?.skipped === 1 || null, 20_000, 100);
    expect(usage()?.messages).toBe(1);
    fs.appendFileSync(transcript, `${second.slice(20)}\n`);
    turn('three');
    const third = await waitFor('the whole message', () => (usage()?.messages === 2 ? usage() : null), 20_000, 100);
    expect(third).toMatchObject({ tokens: { input: 1_000_000, output: 1_000_000 }, costUsd: 18, skipped: 1 });

    const ls = cli(h, ['ls'], { env });
    expect(ls.stdout.split('\n').find((l) => l.startsWith(rid))).toContain('2.00M $18.00');
    expect(ls.stdout.split('\n').find((l) => l.startsWith(id))).toMatch(/ - /);
    const x = cli(h, ['explain', 'reader'], { env });
    expect(x.code, x.stderr).toBe(0);
    expect(x.stdout).toContain('usage: 2.00M tokens (in 1.00M, out 1.00M, cache 0 written 0 read) $18.00 in 2 messages');
    expect(x.stdout).toContain(`read from ${transcript} (1 line skipped (could not be read))`);
    const log = fs.readFileSync(path.join(h, 'sessions', rid, 'runner.log'), 'utf8');
    expect(log.match(/could not be read and is skipped/g)).toHaveLength(1);
  }, 90_000);
});
