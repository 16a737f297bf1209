/**
 * The environment a session's program starts with: the runner's own, less the runner's private
 * knobs, plus who it is and the kind's wiring.
 *
 * A session is an interactive terminal by construction, so a CI marker inherited from wherever
 * agent-board was started must not reach the program: Ink (under Claude Code, Gemini CLI and the
 * board itself) stops drawing when `CI`, `CONTINUOUS_INTEGRATION` or any `CI_*` variable is set,
 * and Gemini CLI goes headless on `CI=true` or `GITHUB_ACTIONS=true` ("No input provided via
 * stdin") and never shows its prompt. `CI=false` is the one value both checks read as "not CI";
 * the other markers are left as they are, since the program may need them (`CI_JOB_TOKEN`).
 */

/** Variables meant for the runner only; the program never sees them. */
const RUNNER_ONLY_PREFIXES = ['AGENT_BOARD_RUNNER_', 'AGENT_BOARD_TEST_'];

/**
 * Variables node acts on at its own start-up that the runner has no use for, so it starts
 * without them and hands them to the program as they were. NODE_EXTRA_CA_CERTS makes node parse
 * the whole certificate file before any script runs: about 50 ms and 1.7 MiB of RSS that every
 * idle runner kept (bench/rss.mjs), for TLS the runner never speaks.
 */
const HELD_FROM_RUNNER = ['NODE_EXTRA_CA_CERTS'];
/** Where a held variable rides in the runner's environment (a runner-only name, so sessionEnv strips it). */
const HELD_PREFIX = 'AGENT_BOARD_RUNNER_HELD_';

/** The environment to start a runner with: `env` with the held variables moved under their runner-only names. */
export function runnerProcessEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  const out = { ...env };
  for (const name of HELD_FROM_RUNNER) {
    if (out[name] === undefined) continue;
    out[HELD_PREFIX + name] = out[name];
    delete out[name];
  }
  return out;
}

export interface SessionIdentity {
  id: string;
  name: string;
  socket: string;
}

/** True when Ink's or Gemini CLI's CI check would fire on this environment. */
export function looksLikeCi(env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.CI === 'false' || env.CI === '0') return false;
  return Object.keys(env).some((k) => k === 'CI' || k === 'CONTINUOUS_INTEGRATION' || k === 'GITHUB_ACTIONS' || k.startsWith('CI_'));
}

export function sessionEnv(
  inherited: Readonly<Record<string, string | undefined>>,
  who: SessionIdentity,
  kindEnv: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(inherited)) {
    if (v !== undefined && !RUNNER_ONLY_PREFIXES.some((p) => k.startsWith(p))) env[k] = v;
  }
  for (const name of HELD_FROM_RUNNER) {
    const held = inherited[HELD_PREFIX + name];
    if (held !== undefined) env[name] = held;
  }
  if (looksLikeCi(env)) {
    env.CI = 'false';
    if (env.GITHUB_ACTIONS === 'true') env.GITHUB_ACTIONS = 'false';
  }
  Object.assign(env, { TERM: 'xterm-256color', AGENT_BOARD_SESSION: who.id, AGENT_BOARD_NAME: who.name, AGENT_BOARD_SOCKET: who.socket });
  Object.assign(env, kindEnv); // the agent kind's own (its wiring: Gemini's settings layer)
  return env;
}
