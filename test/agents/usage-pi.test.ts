// pi's usage read back from its session file (test/agents/usage-suite.ts).
import { usageLane } from './usage-suite.js';

usageLane('pi', { prompts: ['Say hello: usage check 1', 'Once more: usage check 2', 'After the restart: usage check 3'] });
