import { kindOf, type KindRegistry } from '../../src/core/agents/kind-rules.js';
import type { KindDetectors } from '../../src/core/agents/status-detectors.js';
import { loadKindRegistry } from '../../src/state/kind-files.js';

/** The shipped kinds alone: no user file (the config home points nowhere). */
export const SHIPPED: KindRegistry = loadKindRegistry({ AGENT_BOARD_CONFIG_HOME: '/nonexistent/agent-board-test' });

/** Every shipped kind's detectors, by kind name. */
export const DETECTORS: Readonly<Record<string, KindDetectors>> = Object.fromEntries([...SHIPPED.kinds].map(([name, k]) => [name, k.detectors]));

/** A kind's detectors by name; unknown names (and `toString`) read nothing, as a shell. */
export function detectorsOf(kind: string): KindDetectors {
  return kindOf(SHIPPED, kind).detectors;
}
