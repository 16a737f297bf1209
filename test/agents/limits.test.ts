/**
 * Each real CLI, answered with a usage limit by its mock (a trigger in the prompt:
 * test/fixtures/mocks/common.mjs), shows a screen that limitSeen (src/core/usage/limits) reads as
 * limited, with the reset the mock gave, to the minute the CLI shows. Each CLI runs in a time zone
 * of its own (its screen names local times) and with a reset of its own: Codex's is the same day
 * (`try again at 5:12 PM`), Claude's the weekly window's, more than a day ahead (a date), the others'
 * two hours ahead. Claude runs signed in to a plan (an OAuth
 * token; with an API key it shows no reset: test/fixtures/limits/claude-api-key-429.txt).
 * A CLI not installed at its pinned version makes its test say NOT RUN loudly and skip.
 */
import { describe, expect, it } from 'vitest';
import { limitSeen } from '../../src/core/usage/limits/index.js';
import type { LimitSeen } from '../../src/core/usage/usage-types.js';
import { SETUPS, type LaneKind } from './agent-homes.js';
import { findCli, Lane, until } from './lane.js';

const START_MS = 30_000;
/** pi retries a 429 three times (2, 4 and 8 s apart) before it says so for good. */
const LIMIT_SHOWN_MS = 45_000;
/** The screens show whole minutes (Claude drops the seconds of the reset). */
const MINUTE_MS = 60_000;

interface Case {
  zone: string;
  resetS: number;
  mockEnv?: Record<string, string>;
  /** Changes to the CLI's environment (Claude on a plan). */
  env?: (env: Record<string, string>) => void;
}

const CASES: Record<LaneKind, Case> = {
  claude: {
    // The weekly window, more than a day ahead: Claude names the date (`resets Dec 6, 3:40am (Europe/Paris)`).
    zone: 'Europe/Paris',
    resetS: 30 * 3600,
    mockEnv: { MOCK_LIMIT_CLAIM: 'seven_day' },
    env(env) {
      // Signed in to a plan (a token as `claude setup-token` makes), not an API key: only then does it read the unified limit headers.
      delete env.ANTHROPIC_API_KEY;
      env.CLAUDE_CODE_OAUTH_TOKEN = 'sk-ant-oat01-agent-board-lane-0123456789abcdefghij';
    },
  },
  codex: { zone: 'America/New_York', resetS: 40 * 60 },
  gemini: { zone: 'America/Los_Angeles', resetS: 2 * 3600 },
  pi: { zone: 'Asia/Kolkata', resetS: 2 * 3600 },
};

describe.concurrent('usage limits on the real CLIs\' screens (against the mocks)', () => {
  for (const kind of Object.keys(CASES) as LaneKind[]) {
    const found = findCli(kind);
    const title = `${kind}: a limit from its mock is read off its screen with the mock's reset`;
    if ('skip' in found) console.error(`\n!! usage limits lane: ${kind}: NOT RUN: ${found.skip}\n`);
    it.skipIf('skip' in found)(title, { timeout: 150_000 }, async () => {
      const c = CASES[kind];
      const lane = new Lane(kind, (found as { binDir: string }).binDir);
      try {
        await lane.start(30, { MOCK_LIMIT_RESET_S: String(c.resetS), ...c.mockEnv });
        lane.env.TZ = c.zone;
        c.env?.(lane.env);
        const { id } = await lane.newSession(['--agent', kind, '--name', 'x', '--', ...SETUPS[kind].words]);
        const screen = async () => `--- screen:\n${await lane.peek('x')}`;
        await until('x idle after start', () => {
          const r = lane.record(id);
          return r?.activity === 'idle' && r.activitySource !== 'bytes';
        }, START_MS, screen);
        await lane.settled(id);
        const rows = async () => (await lane.peek('x')).split('\n');
        expect(limitSeen(kind, await rows(), Date.now(), c.zone), 'not limited before the limit').toBeNull();

        const sent = await lane.ab(['send', 'x', 'Say hello: usage-limit-now']);
        expect(sent.stdout, sent.stderr).toMatch(/^applied: typed /m);
        const limit = await until('the mock to start a limit', () => lane.mock.entries().find((e) => e.ev === 'limit'), START_MS, screen);
        let seen: LimitSeen | null = null;
        let last: string[] = [];
        const deadline = Date.now() + LIMIT_SHOWN_MS;
        while (!seen && Date.now() < deadline) {
          last = await rows();
          seen = limitSeen(kind, last, Date.now(), c.zone);
          if (!seen) await new Promise((r) => setTimeout(r, 300));
        }
        expect(seen, `limitSeen on its screen:\n${last.join('\n')}`).not.toBeNull();
        console.log(`[limits lane] ${kind} (TZ ${c.zone}): "${seen!.line}" -> ${seen!.resetAt}; the mock's reset ${limit.resetAt}`);
        expect(seen!.resetAt, seen!.line).not.toBeNull();
        const off = Date.parse(seen!.resetAt!) - Date.parse(limit.resetAt!);
        expect(Math.abs(off), `${seen!.resetAt} vs the mock's ${limit.resetAt}`).toBeLessThan(MINUTE_MS);
      } finally {
        lane.stop();
      }
    });
  }
});
