/** `agent-board peek`: print a session's current screen (the last one, for an exited session). */
import fs from 'node:fs';
import type { Command } from 'commander';
import type { RunnerConnection } from '../../client/link/connection.js';
import { fetchSnapshot } from '../../client/screen/fetch-snapshot.js';
import { connectRemote } from '../../client/remote/remote.js';
import { connectSession, findSession, lostReason } from '../../client/session/sessions.js';
import { EXIT, UserError } from '../../state/errors.js';
import { finalScreenFile } from '../../state/paths.js';
import { getHome } from '../context.js';
import { cliTime } from '../cli-time.js';
import { wholeNumber } from '../whole-number.js';

interface PeekOptions {
  ansi?: boolean;
  scrollback: string;
  host?: string;
}

export function registerPeek(program: Command): void {
  program
    .command('peek')
    .description("print a session's current screen (the last one, for an exited session)")
    .argument('<session>', 'id, name or unique prefix')
    .option('--ansi', 'keep colours and attributes')
    .option('--scrollback <lines>', 'also print up to this many lines of history', '0')
    .option('--host <[user@]host>', 'a session on another machine, over ssh')
    .action(async (ref: string, o: PeekOptions) => {
      const wanted = wholeNumber(o.scrollback, '--scrollback');
      const time = cliTime();
      if (o.host) {
        // An exited remote session: the bridge's refusal says so (exit 5).
        const conn = await connectRemote(o.host, ref, { client: 'peek', readOnly: true, scheduler: time.scheduler });
        const { cols, rows, history, frame } = await snapshotOf(conn, wanted).catch((err: Error) => {
          throw new UserError(`${o.host}: ${err.message}`, EXIT.sessionUnavailable);
        });
        return printScreen(cols, rows, history, frame, wanted, o.ansi);
      }
      const home = getHome();
      const s = findSession(home, ref);
      if (s.status === 'exited' || s.status === 'lost') {
        let frame: string;
        try {
          frame = fs.readFileSync(finalScreenFile(home, s.id), 'utf8');
        } catch {
          throw new UserError(s.status === 'lost' ? `session ${s.name} left no screen to show: it is ${lostReason(s)}` : `session ${s.name} has exited and left no screen to show`, EXIT.sessionUnavailable);
        }
        return printScreen(s.cols, s.rows, '', frame, wanted, o.ansi);
      }
      const { cols, rows, history, frame } = await snapshotOf(await connectSession(home, s, 'peek', time, true), wanted);
      return printScreen(cols, rows, history, frame, wanted, o.ansi);
    });
}

async function snapshotOf(conn: RunnerConnection, wanted: number) {
  try {
    return await fetchSnapshot(conn, wanted);
  } finally {
    conn.dispose();
  }
}

async function printScreen(cols: number, rows: number, history: string, frame: string, wanted: number, ansi?: boolean): Promise<void> {
  // The headless terminal is heavy to load; only peek needs it.
  const { renderSnapshot } = await import('../../client/screen/screen-text.js');
  const screen = await renderSnapshot(cols, rows, history, frame);
  const from = Math.max(0, screen.screenStart - wanted);
  const lines = (ansi ? screen.ansiLines : screen.lines).slice(from);
  process.stdout.write(lines.join('\n') + (lines.length ? '\n' : ''));
}
