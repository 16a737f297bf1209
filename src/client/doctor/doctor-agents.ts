/**
 * `doctor`'s check of each agent CLI: installed (on PATH, what its --version says, bounded) and
 * wired, i.e. nothing known stops the hooks and chat tools each session gets
 * (src/core/agents/agent-wiring.ts): Claude's settings that drop hooks given by --settings,
 * Gemini's refusal of a settings layer outside root's folders (src/client/session/wiring-place.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Scheduler } from '../../core/clock.js';
import { kindNamed } from '../../state/kind-files.js';
import { homePath } from '../../state/home.js';
import { runTool, VERSION_TIMEOUT_MS, type Check } from './doctor-check.js';
import { findProgram } from '../../state/process/find-program.js';
import { fallbackBases, geminiRefusal } from '../session/wiring-place.js';

/** The agent kinds with a program of their own that doctor looks for. */
export const DOCTOR_AGENTS = ['claude', 'codex', 'gemini', 'pi'] as const;

/** Claude Code's managed (policy) settings on Linux and macOS. */
const CLAUDE_MANAGED = process.platform === 'darwin' ? '/Library/Application Support/ClaudeCode/managed-settings.json' : '/etc/claude-code/managed-settings.json';

function readJson(file: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null; // none, or not JSON: Claude ignores it too
  }
}

/** Why Claude would drop the hooks we pass with --settings, or null. */
function claudeWiring(env: NodeJS.ProcessEnv): string | null {
  const managed = readJson(CLAUDE_MANAGED);
  if (managed?.disableAllHooks === true) return `${CLAUDE_MANAGED} sets disableAllHooks`;
  if (managed?.allowManagedHooksOnly === true) return `${CLAUDE_MANAGED} sets allowManagedHooksOnly`;
  const userFile = path.join(env.CLAUDE_CONFIG_DIR || path.join(env.HOME || os.homedir(), '.claude'), 'settings.json');
  // A user's disableAllHooks drops every hook but managed ones, ours included.
  if (readJson(userFile)?.disableAllHooks === true) return `${userFile} sets disableAllHooks`;
  for (const v of ['CLAUDE_CODE_SIMPLE', 'CLAUDE_CODE_SAFE_MODE']) if (env[v]) return `${v} is set, which turns hooks off`;
  return null;
}

/** Why Gemini would skip the settings layer we give it (so no hooks and no chat tools), or null; as wiringPlace decides, without writing. */
function geminiWiring(env: NodeJS.ProcessEnv): string | null {
  const uid = process.getuid?.() ?? -1;
  if (uid !== 0) return `Gemini CLI reads a settings layer given by path only from root-owned files and folders, and we run as uid ${uid}`;
  const refused = geminiRefusal(path.join(homePath(env), 'sessions'));
  if (refused === null || fallbackBases().some((b) => geminiRefusal(path.join(b, 'wiring')) === null)) return null;
  return `its settings layer must be in a folder only root can write to, and ${refused}`;
}

const WIRED: Record<(typeof DOCTOR_AGENTS)[number], string> = {
  claude: 'hooks and chat tools wired per session (--settings, --mcp-config)',
  codex: 'turn hook and chat tools wired per session (-c notify, -c mcp_servers)',
  gemini: 'hooks and chat tools wired per session (its system settings layer)',
  pi: 'no hooks to wire: its status comes from its screen',
};

async function agentCheck(name: (typeof DOCTOR_AGENTS)[number], env: NodeJS.ProcessEnv, scheduler: Scheduler): Promise<Check> {
  const program = kindNamed(name).command ?? name;
  const exe = findProgram(program, { env });
  if (!exe) return { check: name, status: 'warn', message: `${program} is not installed (not on PATH): new --agent ${name} cannot start`, fix: `install ${program}, or name yours with new --agent ${name} --command PATH` };
  // AGENT_BOARD_TEST_VERSION_TIMEOUT_MS: a test's hanging CLI need not take the full wait.
  const v = await runTool(exe, ['--version'], env, scheduler, Number(env.AGENT_BOARD_TEST_VERSION_TIMEOUT_MS) || VERSION_TIMEOUT_MS);
  if (!v.ok) return { check: name, status: 'warn', message: `${exe} --version failed (${v.why}): it may not start`, fix: `run ${exe} --version yourself` };
  // Some print it on stderr (pi).
  const version = (v.stdout.trim() || v.stderr.trim()).split('\n')[0] ?? '';
  const broken = name === 'claude' ? claudeWiring(env) : name === 'gemini' ? geminiWiring(env) : null;
  if (broken) return { check: name, status: 'warn', message: `${version} (${exe}); hooks not wired: ${broken}; its status comes from its title and screen` };
  return { check: name, status: 'ok', message: `${version} (${exe}); ${WIRED[name]}` };
}

/** All of them at once: a slow --version never holds up another. */
export function agentChecks(env: NodeJS.ProcessEnv, scheduler: Scheduler): Promise<Check[]> {
  return Promise.all(DOCTOR_AGENTS.map((n) => agentCheck(n, env, scheduler)));
}
