/**
 * Each agent kind's usage reader (docs/usage.md), by the kind's name. A kind not here (a shell, the
 * demo, a kind of the user's) has no usage to read.
 */
import type { UsageReader } from '../usage-types.js';
import { claudeUsage } from './claude-usage.js';
import { codexUsage } from './codex-usage.js';
import { geminiUsage } from './gemini-usage.js';
import { piUsage } from './pi-usage.js';

export const USAGE_READERS: Readonly<Record<string, UsageReader>> = Object.freeze({ claude: claudeUsage, codex: codexUsage, gemini: geminiUsage, pi: piUsage });
