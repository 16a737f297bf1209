/** `agent-board doctor`: every check, in the order a user would fix them (docs/cli.md, "doctor"). */
import type { Scheduler } from '../../core/clock.js';
import { agentChecks } from './doctor-agents.js';
import type { Check } from './doctor-check.js';
import { bundleCheck, configChecks, homeCheck, lostCheck } from './doctor-home.js';
import { nativeCheck, ptyCheck } from './doctor-parts.js';
import { sandboxCheck } from './doctor-sandbox.js';
import { containerCheck } from './doctor-container.js';
import { logoutCheck, rebootCheck } from './doctor-systemd.js';

export type { Check } from './doctor-check.js';

export async function runDoctor(env: NodeJS.ProcessEnv, scheduler: Scheduler): Promise<Check[]> {
  const home = homeCheck(env);
  // The container backend (`--sandbox container`) has a check of its own beside `sandbox`, from a real run.
  const [logout, agents, sandbox, container] = await Promise.all([logoutCheck(env, scheduler), agentChecks(env, scheduler), sandboxCheck(env, scheduler), containerCheck(env, scheduler)]);
  // Lost sessions are read only from a home agent-board would use.
  const lost = home.status === 'fail' ? [] : [await lostCheck(env, scheduler)];
  return [home, bundleCheck(), ptyCheck(), nativeCheck(), ...configChecks(env), logout, rebootCheck(env), ...agents, sandbox, container, ...lost];
}

/** 0 when nothing failed (warnings included), 1 otherwise. */
export const doctorExitCode = (checks: readonly Check[]): number => (checks.some((c) => c.status === 'fail') ? 1 : 0);
