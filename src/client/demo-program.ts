/** Where the demo agent's compiled program is (the demo kind's own program: `new --agent demo`, the board's form, `agent-board demo`). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * dist/demo/demo-agent.js, found from this file two folders down from the project's root
 * (src/client under test, dist/client, dist/bundle), as RUNNER_ENTRY is.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
export const DEMO_AGENT = [path.join(here, '..', 'demo', 'demo-agent.js'), path.join(here, '..', '..', 'dist', 'demo', 'demo-agent.js')].find((f) =>
  fs.existsSync(f),
) ?? path.join(here, '..', '..', 'dist', 'demo', 'demo-agent.js');
