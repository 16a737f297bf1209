/**
 * `agent-board usage [--by session|room|kind|day] [--since <when>] [--json]`: what the agents
 * spent, read from their own transcripts (docs/usage.md), as a table with a total.
 */
import type { Command } from 'commander';
import { roomOf } from '../../core/chat/chat.js';
import { priceTable } from '../../core/usage/prices.js';
import { parseSince } from '../../core/usage/since.js';
import { entriesSince, groupUsage, mergeTotals, tokenTotal, USAGE_GROUPS, type SessionEntries, type UsageGroupBy, type UsageTotals } from '../../core/usage/usage-sum.js';
import { costText, exactCount } from '../../core/usage/usage-text.js';
import { readUserConfig } from '../../state/config.js';
import { EXIT, UserError } from '../../state/errors.js';
import { listSessions } from '../../state/host-store.js';
import { readSessionEntries } from '../../state/usage/session-entries.js';
import { getHome } from '../context.js';
import { table } from '../format.js';
import { cliTime } from '../cli-time.js';

interface UsageOpts {
  by?: string;
  since?: string;
  json?: boolean;
}

export function registerUsage(program: Command): void {
  program
    .command('usage')
    .description("what the agents spent: tokens and dollars from their own transcripts, per session, room, kind or day")
    .option('--by <what>', `group by ${USAGE_GROUPS.join(', ')}`, 'session')
    .option('--since <when>', 'only messages since: 2026-12-01, 2026-12-01T15:00 (UTC), today, or back from now: 90m, 12h, 7d, 2w')
    .option('--json', 'print JSON')
    .action((o: UsageOpts) => {
      const now = cliTime().clock.now();
      const by = o.by as UsageGroupBy;
      if (!USAGE_GROUPS.includes(by)) throw new UserError(`--by ${o.by}: use one of ${USAGE_GROUPS.join(', ')}`, EXIT.usage);
      const sinceMs = o.since === undefined ? null : parseSince(o.since, now);
      if (sinceMs === null && o.since !== undefined) throw new UserError(`--since ${o.since}: use a date (2026-12-01), a time (2026-12-01T15:00, UTC), today, or a span back (90m, 12h, 7d, 2w)`, EXIT.usage);
      const { config, errors } = readUserConfig();
      for (const e of errors) process.stderr.write(`${e}\n`);
      const prices = priceTable(config.prices);

      const read: SessionEntries[] = [];
      const sources: Array<{ id: string; name: string; kind: string; file: string | null; skipped: number; note?: string }> = [];
      for (const s of listSessions(getHome())) {
        const r = readSessionEntries(s, process.env);
        if ('noTranscript' in r) {
          sources.push({ id: s.id, name: s.name, kind: s.agent, file: null, skipped: 0, note: r.noTranscript });
          continue;
        }
        // A line that could not be read is said once, here, with the file it is in.
        if (r.firstSkip) process.stderr.write(`${s.name}: ${r.skipped} line(s) of ${r.file} could not be read and were skipped (${r.firstSkip})\n`);
        sources.push({ id: s.id, name: s.name, kind: s.agent, file: r.file, skipped: r.skipped });
        read.push({ session: s.name, room: roomOf(s), kind: s.agent, entries: entriesSince(r.entries, sinceMs) });
      }
      const groups = groupUsage(read, by, prices);
      // --by session lists every session it read, a session with nothing since --since too.
      if (by === 'session') for (const s of read) if (!groups.some((g) => g.group === s.session)) groups.push({ group: s.session, totals: mergeTotals([]) });
      const total = mergeTotals(groups.map((g) => g.totals));
      const missing = sources.filter((s) => s.file === null);

      if (o.json) {
        const out = {
          by,
          since: sinceMs === null ? null : new Date(sinceMs).toISOString(),
          groups: groups.map((g) => ({ [by]: g.group, ...g.totals })),
          total,
          sources,
        };
        process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
        return;
      }
      const rows = [[by.toUpperCase(), 'MESSAGES', 'INPUT', 'OUTPUT', 'CACHE-WRITE', 'CACHE-READ', 'TOKENS', 'COST']];
      // Every token (a bill is checked against it); `ls` and the board say them at a glance (shortCount).
      const row = (name: string, t: UsageTotals) => [name, String(t.messages), exactCount(t.tokens.input), exactCount(t.tokens.output), exactCount(t.tokens.cacheWrite), exactCount(t.tokens.cacheRead), exactCount(tokenTotal(t.tokens)), costText(t)];
      for (const g of groups) rows.push(row(g.group, g.totals));
      if (by === 'session') for (const m of missing) rows.push([m.name, '-', '-', '-', '-', '-', '-', m.note ?? 'no transcript']);
      rows.push(row('TOTAL', total));
      const notes: string[] = [];
      if (total.unpriced.length > 0) notes.push(`no price for ${total.unpriced.join(', ')}: their tokens are counted, their cost is not (set it in config.json "prices", docs/usage.md)`);
      if (by !== 'session' && missing.length > 0) notes.push(`no transcript: ${missing.map((m) => m.name).join(', ')}`);
      process.stdout.write(`${table(rows)}\n${notes.map((n) => `${n}\n`).join('')}`);
    });
}
