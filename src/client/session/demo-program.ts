/** Where the demo agent's compiled program is (the demo kind's own program: `new --agent demo`, the board's form, `agent-board demo`). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Found from this file two folders down from the project's root, as RUNNER_ENTRY is: beside the
 * bundles, dist/bundle/demo-agent.js (scripts/bundle.mjs; the only one an installed copy has);
 * else tsc's dist/demo/demo-agent.js (from dist/client, or from src/client under test).
 */
const here = path.dirname(fileURLToPath(import.meta.url));
export const DEMO_AGENT = [
  path.join(here, 'demo-agent.js'),
  path.join(here, '..', 'demo', 'demo-agent.js'),
  path.join(here, '..', '..', 'dist', 'demo', 'demo-agent.js'),
].find((f) => fs.existsSync(f)) ?? path.join(here, 'demo-agent.js');
