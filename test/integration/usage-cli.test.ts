/**
 * `agent-board usage` and the USAGE column of `ls`, over sessions whose transcripts the test
 * writes (agent-board's own usage lines, AGENT_BOARD_TEST_USAGE_DIR: src/state/usage/usage-source.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import type { SessionUsage } from '../../src/core/usage/usage-types.js';
import { writeHostFile } from '../../src/state/host-store.js';
import { cli, destroyHome, makeHome } from '../helpers/home.js';

let home: string;
let dir: string;
let env: Record<string, string>;
beforeEach(() => {
  home = makeHome();
  dir = path.join(home, 'transcripts');
  fs.mkdirSync(dir);
  // An empty config home: the user's own prices never reach the test.
  const config = path.join(home, 'config');
  fs.mkdirSync(config);
  env = { AGENT_BOARD_TEST_USAGE_DIR: dir, XDG_CONFIG_HOME: config, AGENT_BOARD_CONFIG_HOME: config };
});
afterEach(() => destroyHome(home));

function record(id: string, name: string, agent: string, room: string, usage?: SessionUsage): HostRecord {
  const at = '2026-12-01T00:00:00.000Z';
  return {
    id, name, agent, room, command: agent, args: [], cwd: home, createdAt: at, updatedAt: at, heartbeatAt: at, lastOutputAt: at,
    runnerPid: null, childPid: null, generation: null, status: 'exited', cols: 80, rows: 24, exitCode: 0, exitSignal: null, scrollback: 0,
    ...(usage ? { usage } : {}),
  };
}

function addSession(r: HostRecord, lines: string[] | null): void {
  fs.mkdirSync(path.join(home, 'sessions', r.id), { recursive: true });
  writeHostFile(path.join(home, 'sessions', r.id, 'host.json'), r);
  if (lines) fs.writeFileSync(path.join(dir, `${r.id}.jsonl`), lines.join('\n') + '\n');
}

const msg = (at: string, model: string, input: number, output: number, more: object = {}) => JSON.stringify({ at, model, tokens: { input, output, cacheWrite: 0, cacheRead: 0 }, ...more });

function threeSessions(): void {
  addSession(record('aaaa1111', 'api', 'claude', 'backend'), [
    msg('2026-12-01T10:00:00Z', 'claude-sonnet-4-5', 1_000_000, 100_000, { key: 'm1' }),
    msg('2026-12-01T10:00:00Z', 'claude-sonnet-4-5', 1_000_000, 100_000, { key: 'm1' }), // written twice: counted once
    'not a line anyone can read',
    msg('2026-12-02T09:00:00Z', 'claude-sonnet-4-5', 0, 1_000_000),
  ]);
  addSession(record('bbbb2222', 'web', 'codex', 'backend'), [msg('2026-12-02T11:00:00Z', 'gpt-5', 2_000_000, 0), msg('2026-12-02T12:00:00Z', 'gpt-unknown', 500, 5)]);
  addSession(record('cccc3333', 'notes', 'shell', 'default'), null);
}

interface Json {
  by: string;
  since: string | null;
  groups: Array<Record<string, unknown> & { messages: number; costUsd: number | null; tokens: { input: number; output: number }; unpriced: string[] }>;
  total: { messages: number; costUsd: number | null; tokens: { input: number; output: number } };
  sources: Array<{ name: string; file: string | null; skipped: number; note?: string }>;
}

describe('agent-board usage', () => {
  it('a table per session with a total, every token; a session without a transcript says so; a skipped line is said once', () => {
    threeSessions();
    const r = cli(home, ['usage'], { env });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^SESSION +MESSAGES +INPUT +OUTPUT +CACHE-WRITE +CACHE-READ +TOKENS +COST$/);
    // api: 1M in + 1.1M out at $3/$15 = $19.50; web: 2M in at $1.25 = $2.50 and an unpriced model.
    expect(lines.find((l) => l.startsWith('api '))).toMatch(/^api +2 +1,000,000 +1,100,000 +0 +0 +2,100,000 +\$19\.50$/);
    expect(lines.find((l) => l.startsWith('web '))).toMatch(/^web +2 +2,000,500 +5 +0 +0 +2,000,505 +\$2\.50\+\?$/);
    expect(lines.find((l) => l.startsWith('notes '))).toMatch(/no transcript$/);
    expect(lines.find((l) => l.startsWith('TOTAL '))).toMatch(/^TOTAL +4 +3,000,500 +1,100,005 .* \$22\.00\+\?$/);
    expect(r.stdout).toContain('no price for gpt-unknown');
    expect(r.stderr).toMatch(/^api: 1 line\(s\) of .*aaaa1111\.jsonl could not be read and were skipped \(line 3: not a line anyone can read\)\n$/);
  });

  it('--json, --by room, kind and day, and --since', () => {
    threeSessions();
    const json = (args: string[]) => {
      const r = cli(home, ['usage', '--json', ...args], { env });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Json;
    };
    const all = json([]);
    expect(all.by).toBe('session');
    expect(all.total).toMatchObject({ messages: 4, costUsd: 22, tokens: { input: 3_000_500, output: 1_100_005 } });
    expect(all.sources.find((s) => s.name === 'api')).toMatchObject({ skipped: 1, file: path.join(dir, 'aaaa1111.jsonl') });
    expect(all.sources.find((s) => s.name === 'notes')).toMatchObject({ file: null, note: 'no transcript' });

    expect(json(['--by', 'room']).groups.map((g) => [g.room, g.messages])).toEqual([['backend', 4]]);
    expect(json(['--by', 'kind']).groups.map((g) => [g.kind, g.costUsd])).toEqual([['claude', 19.5], ['codex', 2.5]]);
    expect(json(['--by', 'day']).groups.map((g) => [g.day, g.messages])).toEqual([['2026-12-01', 1], ['2026-12-02', 3]]);

    const since = json(['--since', '2026-12-02', '--by', 'day']);
    expect(since.since).toBe('2026-12-02T00:00:00.000Z');
    expect(since.groups.map((g) => g.day)).toEqual(['2026-12-02']);
    expect(since.total.messages).toBe(3);

    const table = cli(home, ['usage', '--by', 'day'], { env });
    expect(table.stdout.split('\n')[0]).toMatch(/^DAY +MESSAGES/);
    expect(table.stdout).toContain('no transcript: notes');
  });

  it("config.json's prices override the shipped ones and price a model that had none", () => {
    threeSessions();
    fs.writeFileSync(path.join(home, 'config', 'config.json'), JSON.stringify({ prices: { 'gpt-unknown': { input: 1000, output: 0 }, 'claude-sonnet-4-5': { input: 0, output: 1 } } }));
    const r = cli(home, ['usage', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Json;
    // api: 1.1M out at $1; web: 2M in at $1.25 (shipped gpt-5) and 500 in at $1000.
    expect(out.groups.map((g) => [g.session, g.costUsd, g.unpriced])).toEqual([['api', 1.1, []], ['web', 3, []]]);
  });

  it('refuses a --by or --since it does not know, with a usage error', () => {
    const by = cli(home, ['usage', '--by', 'week'], { env });
    expect(by.code).toBe(2);
    expect(by.stderr).toContain('--by week: use one of session, room, kind, day');
    const since = cli(home, ['usage', '--since', 'last tuesday'], { env });
    expect(since.code).toBe(2);
    expect(since.stderr).toContain('--since last tuesday');
  });
});

describe('ls', () => {
  it('shows a USAGE column once a session has figures, and --json carries them', () => {
    const usage: SessionUsage = {
      tokens: { input: 12_000, output: 345, cacheWrite: 0, cacheRead: 0 }, costUsd: 0.041175, unpriced: [], models: ['claude-sonnet-4-5'],
      messages: 2, file: '/x/t.jsonl', skipped: 0, updatedAt: '2026-12-01T00:00:00.000Z',
    };
    addSession(record('dddd4444', 'plain', 'shell', 'default'), null);
    const before = cli(home, ['ls'], { env });
    expect(before.stdout.split('\n')[0]).not.toContain('USAGE');
    addSession(record('eeee5555', 'spender', 'claude', 'default', usage), null);
    const r = cli(home, ['ls'], { env });
    expect(r.stdout.split('\n')[0]).toMatch(/ USAGE +COMMAND$/);
    expect(r.stdout.split('\n').find((l) => l.startsWith('eeee5555'))).toContain('12.3k $0.04');
    expect(r.stdout.split('\n').find((l) => l.startsWith('dddd4444'))).toMatch(/ - +shell|  -  /);
    const rows = JSON.parse(cli(home, ['ls', '--json'], { env }).stdout) as Array<{ name: string; usage?: SessionUsage }>;
    expect(rows.find((x) => x.name === 'spender')!.usage).toEqual(usage);
  });
});
