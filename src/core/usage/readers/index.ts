/**
 * Each agent kind's usage reader, by kind ('claude', 'codex', 'gemini', 'pi'). Empty in this
 * branch: the readers are written beside this file by issue 31's part 2, which replaces it.
 */
import type { UsageReader } from '../usage-types.js';

export const USAGE_READERS: Readonly<Record<string, UsageReader>> = Object.freeze({});
