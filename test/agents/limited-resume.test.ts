/**
 * Resume-after-limit with the real CLIs (issue 31, item 6; docs/usage.md, "Carrying on after a
 * limit"): a session started with `new --agent <kind> --resume-after-limit` is sent a prompt that
 * makes its mock start a usage limit a few tens of seconds ahead (test/fixtures/mocks/common.mjs);
 * the session is `limited` on `ls --json` with the mock's reset, `explain` says the limit, and after
 * the reset the runner types "continue" once: the mock receives exactly one request whose last user
 * message is it, the session leaves `limited`, nothing more is typed in the next 15 s, and host.json
 * keeps one try. AGENT_BOARD_TEST_RESUME_DELAY_MS keeps the random delay after the reset short.
 *
 * Which CLIs, and why not the others (docs/usage.md, "Usage limits"):
 * - pi: says the wait to the second ("Please try again in 0h0m21s") after its three retries.
 * - codex: says a clock time to the minute ("try again at 5:12 PM").
 * - gemini: shows its limit only for a wait over 300 s (under that it retries by itself and says
 *   nothing), too long for this lane; its dialog is tested by test/agents/limits.test.ts.
 * - claude: shows its reset on a plan only (signed in with an OAuth token), to the minute, and offers
 *   to continue by itself ("Continuing shortly · Esc to cancel"); against the mock it had not, a
 *   minute after the stated reset, when the runner typed "continue": its turn, held busy through the
 *   limit, then answers once, and the session leaves `limited` when the limit's words leave its screen.
 * A CLI not installed at its pinned version makes its test say NOT RUN loudly and skip.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import { SETUPS, type LaneKind } from './agent-homes.js';
import { RawClient } from '../helpers/raw-client.js';
import { findCli, Lane, until, type MockEntry } from './lane.js';

const START_MS = 30_000;
/** pi retries a 429 three times (2, 4 and 8 s apart) before it says so for good. */
const LIMIT_SHOWN_MS = 45_000;
/** The longest delay after the reset the runner draws here (AGENT_BOARD_TEST_RESUME_DELAY_MS). */
const RESUME_DELAY_MS = 2000;
/** How long nothing more may be typed after the resume. */
const QUIET_AFTER_MS = 15_000;
const RESUME = 'continue';

interface Case {
  /** Seconds from the trigger to the reset (MOCK_LIMIT_RESET_S). */
  resetS: number;
  /** How far the session's `limited.resetAt` may be from the mock's reset: the precision of the CLI's words. */
  resetSlackMs: number;
  env?: (env: Record<string, string>) => void;
  /**
   * A dialog the CLI opens with its limit, which the resume's Enter would answer: the runner holds
   * the prompt while it shows (the session reads `waiting`), past the reset, until the user
   * answers it with `key` (here: what a board's keystroke sends).
   */
  dialog?: { shows: string; key: string };
}

const CASES: Partial<Record<LaneKind, Case>> = {
  // pi's words count from when they were printed, to the second; its retries take 14 s first.
  pi: { resetS: 35, resetSlackMs: 3000 },
  // Codex names the minute the limit resets ("try again at 10:05 PM"): read as that minute's start,
  // and typed after its end. With its headers at 100 % it offers to switch models (Esc: no).
  // Signed in to a plan (as in limits.test.ts): with an API key Claude names no reset.
  claude: {
    resetS: 20,
    resetSlackMs: 60_000,
    env(env) {
      delete env.ANTHROPIC_API_KEY;
      env.CLAUDE_CODE_OAUTH_TOKEN = 'sk-ant-oat01-agent-board-lane-0123456789abcdefghij';
    },
  },
  codex: { resetS: 20, resetSlackMs: 60_000, dialog: { shows: 'Approaching rate limits', key: '\x1b' } },
};

/**
 * The texts of the last user message a generation request carries (Chat Completions, Responses,
 * Anthropic, Gemini), trimmed: Claude sends the prompt as one text block among others (its reminders).
 */
function lastUserTexts(body: string | undefined): string[] {
  let j: Record<string, unknown>;
  try {
    j = JSON.parse(body ?? '') as Record<string, unknown>;
  } catch {
    return [];
  }
  const items = (j.messages ?? j.input ?? j.contents) as { role?: string; content?: unknown; parts?: unknown }[] | undefined;
  if (!Array.isArray(items)) return [];
  const user = items.filter((m) => m.role === 'user').at(-1);
  const parts = user?.content ?? user?.parts;
  if (typeof parts === 'string') return [parts.trim()];
  if (!Array.isArray(parts)) return [];
  return (parts as { text?: unknown }[]).flatMap((p) => (typeof p.text === 'string' ? [p.text.trim()] : []));
}

const GENERATION = /\/chat\/completions|\/responses|\/v1\/messages(?!\/count)|:(?:stream)?[gG]enerateContent/;
const resumes = (entries: MockEntry[]) => entries.filter((e) => e.ev === 'request' && GENERATION.test(e.url ?? '') && lastUserTexts(e.body).includes(RESUME));

type Listed = HostRecord & { state: string };

describe.concurrent('resume-after-limit on the real CLIs (against the mocks)', () => {
  for (const kind of Object.keys(CASES) as LaneKind[]) {
    const found = findCli(kind);
    const title = `${kind}: limited with the mock's reset, then continued exactly once after it`;
    if ('skip' in found) {
      const bar = '!'.repeat(100);
      console.error(`\n${bar}\n!! resume-after-limit lane: ${kind}: NOT RUN: ${found.skip}\n${bar}\n`);
    }
    it.skipIf('skip' in found)(title, { timeout: 150_000 }, async () => {
      const c = CASES[kind]!;
      const lane = new Lane(kind, (found as { binDir: string }).binDir);
      try {
        await lane.start(30, { MOCK_LIMIT_RESET_S: String(c.resetS) });
        lane.env.AGENT_BOARD_TEST_RESUME_DELAY_MS = String(RESUME_DELAY_MS);
        c.env?.(lane.env);
        const { id } = await lane.newSession(['--agent', kind, '--name', 'x', '--resume-after-limit', '--', ...SETUPS[kind].words]);
        const runnerLog = () => {
          try {
            return fs.readFileSync(path.join(lane.abHome, 'sessions', id, 'runner.log'), 'utf8');
          } catch {
            return '(no runner log)';
          }
        };
        const screen = async () => `--- screen:\n${await lane.peek('x')}\n--- runner log (last lines):\n${runnerLog().split('\n').slice(-25).join('\n')}`;
        const listed = async () => (JSON.parse((await lane.ab(['ls', '--json'])).stdout) as Listed[]).find((s) => s.id === id);
        await until('x idle after start', () => {
          const r = lane.record(id);
          return r?.activity === 'idle' && r.activitySource !== 'bytes';
        }, START_MS, screen);
        await lane.settled(id);

        const sent = await lane.ab(['send', 'x', 'Say hello: usage-limit-now']);
        expect(sent.stdout, sent.stderr).toMatch(/^applied: typed /m);
        const limit = await until('the mock to start a limit', () => lane.mock.entries().find((e) => e.ev === 'limit'), START_MS, screen);
        const resetAt = Date.parse(limit.resetAt!);

        // Limited, on ls --json, with the reset the mock gave (as precisely as the CLI says it).
        let s: Listed | undefined;
        const deadline = Date.now() + LIMIT_SHOWN_MS;
        while (!(s?.state === 'limited') && Date.now() < deadline) {
          s = await listed();
          if (s?.state !== 'limited') await new Promise((r) => setTimeout(r, 300));
        }
        expect(s?.state, `ls --json: ${JSON.stringify(s)}\n${await screen()}`).toBe('limited');
        console.log(`[resume lane] ${kind}: limited "${s!.limited!.line}" -> ${s!.limited!.resetAt}; the mock's reset ${limit.resetAt}`);
        expect(s!.limited!.resetAt, s!.limited!.line).not.toBeNull();
        expect(Math.abs(Date.parse(s!.limited!.resetAt!) - resetAt), `${s!.limited!.resetAt} vs the mock's ${limit.resetAt}`).toBeLessThan(c.resetSlackMs);
        const why = (await lane.ab(['explain', 'x'])).stdout;
        expect(why).toMatch(/^x: limited$/m);
        expect(why).toMatch(/^limit +".+" seen \d\d:\d\d:\d\d .*; resets \d\d:\d\d/m);
        expect(why).toMatch(/^resume +on: types "continue" once a limit resets; 3 of 3 tries left today$/m);
        expect(resumes(lane.mock.entries()), 'nothing typed before the reset').toEqual([]);

        if (c.dialog) {
          // Past the reset (the end of the minute the CLI named) and the delay, the dialog holds the prompt.
          await lane.screenShows('x', c.dialog.shows, START_MS);
          await until('x waiting (its dialog)', () => lane.record(id)?.activity === 'waiting', 10_000, screen);
          const over = Math.max(resetAt, Date.parse(s!.limited!.resetAt!) + 60_000) + RESUME_DELAY_MS + 4000;
          await new Promise((r) => setTimeout(r, Math.max(0, over - Date.now())));
          expect(resumes(lane.mock.entries()), 'nothing typed into the dialog').toEqual([]);
          expect(runnerLog()).toMatch(/resume-after-limit: held: the agent shows a dialog/);
          expect(await lane.peek('x')).toContain(c.dialog.shows);
          const keys = await RawClient.hello(lane.abHome, id);
          keys.send({ type: 'input', data: c.dialog.key });
          keys.socket.destroy();
        }

        // After the reset the session carries on exactly once: with our "continue", or (Claude Code) by itself,
        // "Usage limit reset · Continuing automatically", when its own timer fires first: then ours must never follow.
        const carried = await until('the session carrying on after the reset', () => lane.mock.entries().find((e) => e.ev === 'request' && GENERATION.test(e.url ?? '') && e.t >= resetAt), c.resetS * 1000 + c.resetSlackMs + 30_000, screen);
        if (!resumes(lane.mock.entries()).some((e) => e.t <= carried.t)) {
          await until('x no longer limited', () => lane.record(id)?.activity !== undefined && !(lane.record(id) as HostRecord | undefined)?.limited, 30_000, screen);
          expect(await lane.peek('x'), 'only Claude Code carries on by itself').toContain('Continuing automatically');
          console.log(`[resume lane] ${kind}: carried on by itself ${((carried.t - resetAt) / 1000).toFixed(1)} s after its reset; ours must not follow`);
          // Past the time ours would have been typed: the end of the minute the CLI named, the delay, and a margin.
          const wouldBe = Math.max(resetAt, Date.parse(s!.limited!.resetAt!) + 60_000) + RESUME_DELAY_MS + 5000;
          await new Promise((r) => setTimeout(r, Math.max(QUIET_AFTER_MS, wouldBe - Date.now())));
          expect(resumes(lane.mock.entries()), 'no "continue" after the agent carried on by itself').toEqual([]);
          expect((lane.record(id) as HostRecord | undefined)?.limitResumes ?? []).toEqual([]);
          expect(runnerLog()).not.toMatch(/resume-after-limit: typing/);
          return;
        }
        const first = resumes(lane.mock.entries())[0]!;
        console.log(`[resume lane] ${kind}: "continue" reached the mock ${((first.t - resetAt) / 1000).toFixed(1)} s after its reset`);
        expect(first.t).toBeGreaterThanOrEqual(resetAt);
        expect(lane.mock.entries().filter((e) => e.ev === 'limited' && e.t > first.t - 50), 'the resume was answered, not refused').toEqual([]);
        await until('x no longer limited', () => lane.record(id)?.activity !== undefined && !(lane.record(id) as HostRecord | undefined)?.limited, 30_000, screen);
        await new Promise((r) => setTimeout(r, QUIET_AFTER_MS));
        expect(resumes(lane.mock.entries()).length, 'requests carrying the resume prompt').toBe(1);
        expect((await listed())!.state).not.toBe('limited');
        const rec = lane.record(id) as HostRecord | undefined;
        expect(rec!.limitResumes, JSON.stringify(rec!.limitResumes)).toHaveLength(1);
        const log = runnerLog();
        expect(log.match(/resume-after-limit: typing "continue"/g), log).toHaveLength(1);
      } finally {
        lane.stop();
      }
    });
  }
});
