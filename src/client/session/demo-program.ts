/** Where the demo agent's compiled program is (the demo kind's own program: `new --agent demo`, the board's form, `agent-board demo`). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from '../../state/this-copy.js';

/**
 * Beside the bundles, dist/bundle/demo-agent.js (scripts/bundle.mjs; the only one an installed copy
 * has) when this runs from a bundle; else tsc's dist/demo/demo-agent.js (from dist/ or, under test,
 * from src/), found from the copy's root (src/state/this-copy.ts), wherever this file sits.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
export const DEMO_AGENT = [
  path.join(here, 'demo-agent.js'),
  path.join(ROOT, 'dist', 'demo', 'demo-agent.js'),
  path.join(ROOT, 'dist', 'bundle', 'demo-agent.js'),
].find((f) => fs.existsSync(f)) ?? path.join(here, 'demo-agent.js');
