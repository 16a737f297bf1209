import path from 'node:path';
import { cli, ROOT } from './home.js';

/** A Claude-like agent whose turns a test drives through a file (test/fixtures/programs/turns.mjs). */
export const TURNS = path.join(ROOT, 'test', 'fixtures', 'programs', 'turns.mjs');

/** Starts it as the claude kind; append `ask` or `done` lines to `control` for a turn (busy for `busyMs`). */
export function startTurns(home: string, name: string, busyMs = 300): { id: string; control: string } {
  const control = path.join(home, `${name}.control`);
  const r = cli(home, ['new', '--name', name, '--agent', 'claude', '--command', process.execPath, '--', TURNS], {
    env: { TURNS_CONTROL: control, TURNS_BUSY_MS: String(busyMs) },
  });
  if (r.code !== 0) throw new Error(`new failed (${r.code}): ${r.stderr}`);
  return { id: r.stdout.trim(), control };
}
