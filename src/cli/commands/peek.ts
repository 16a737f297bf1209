import fs from 'node:fs';
import type { Command } from 'commander';
import { fetchSnapshot } from '../../client/fetch-snapshot.js';
import { connectSession, findSession } from '../../client/sessions.js';
import { EXIT, UserError } from '../../state/errors.js';
import { finalScreenFile } from '../../state/paths.js';
import { getHome } from '../context.js';

export function registerPeek(program: Command): void {
  program
    .command('peek')
    .description("print a session's current screen (the last one, for an exited session)")
    .argument('<session>', 'id, name or unique prefix')
    .option('--ansi', 'keep colours and attributes')
    .option('--scrollback <lines>', 'also print up to this many lines of history', '0')
    .action(async (ref: string, o: { ansi?: boolean; scrollback: string }) => {
      const home = getHome();
      const s = findSession(home, ref);
      const wanted = Math.max(0, Number.parseInt(o.scrollback, 10) || 0);
      let cols = s.cols;
      let rows = s.rows;
      let history = '';
      let frame = '';
      if (s.status === 'exited' || s.status === 'lost') {
        try {
          frame = fs.readFileSync(finalScreenFile(home, s.id), 'utf8');
        } catch {
          throw new UserError(`session ${s.name} is ${s.status} and left no screen to show`, EXIT.sessionUnavailable);
        }
      } else {
        const conn = await connectSession(home, s, 'peek', true);
        try {
          ({ cols, rows, history, frame } = await fetchSnapshot(conn, wanted));
        } finally {
          conn.destroy();
        }
      }
      // The headless terminal is heavy to load; only peek needs it.
      const { renderSnapshot } = await import('../../client/screen-text.js');
      const screen = await renderSnapshot(cols, rows, history, frame);
      const from = Math.max(0, screen.screenStart - wanted);
      const lines = (o.ansi ? screen.ansiLines : screen.lines).slice(from);
      process.stdout.write(lines.join('\n') + (lines.length ? '\n' : ''));
    });
}
