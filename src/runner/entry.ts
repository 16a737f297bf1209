/**
 * The runner's own entry point: `node dist/runner/entry.js <id>`. It loads only
 * the runner (no CLI, no commander), which keeps an idle session's memory down.
 */
import { runRunner } from './main.js';

const id = process.argv[2];
if (!id) {
  process.stderr.write('usage: entry.js <session id>\n');
  process.exitCode = 2;
} else {
  // Anything thrown before the runner's own log exists (no home) ends it here, said on stderr.
  runRunner(id).catch((err: unknown) => {
    process.stderr.write(`agent-board runner: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
}
