// Gemini CLI's usage read back from its saved chat (test/agents/usage-suite.ts).
import { usageLane } from './usage-suite.js';

usageLane('gemini', { prompts: ['Say hello: usage check 1', 'Once more: usage check 2', 'After the restart: usage check 3'] });
