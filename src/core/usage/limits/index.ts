/**
 * Whether an agent's screen says it hit a usage limit, and until when (issue 31; docs/usage.md,
 * "Usage limits"): one detector per kind, each reading the words and the place its CLI prints them
 * (an error line of the latest turn, not the transcript's text: an agent explaining rate limits is
 * not limited). Pure: `now` is given; times without a zone are in `localZone` (an IANA name, the
 * agent's own; the runtime's when absent).
 */
import type { LimitSeen } from '../usage-types.js';
import { claudeLimit } from './claude-limit.js';
import { codexLimit } from './codex-limit.js';
import { geminiLimit } from './gemini-limit.js';
import { piLimit } from './pi-limit.js';

type Detector = (screenLines: readonly string[], now: number, localZone?: string) => LimitSeen | null;

const DETECTORS: Readonly<Record<string, Detector>> = {
  claude: claudeLimit,
  codex: codexLimit,
  gemini: geminiLimit,
  pi: piLimit,
};

/** The limit the screen of an agent of `kind` shows, or null (no limit, or a kind with no detector). */
export function limitSeen(kind: string, screenLines: readonly string[], now: number, localZone?: string): LimitSeen | null {
  const detect = Object.hasOwn(DETECTORS, kind) ? DETECTORS[kind] : undefined;
  return detect ? detect(screenLines, now, localZone) : null;
}
