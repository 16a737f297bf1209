/**
 * Each agent kind's state folder (its conversations, settings, sign-in): the `home` of its
 * conversation rules (src/core/agents/agent-kinds.ts), with the environment's override
 * (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME, PI_CODING_AGENT_DIR). A sandboxed session may
 * write its own kind's and may not read the others'.
 */
import { AGENT_KINDS } from '../agents/agent-kinds.js';
import { conversationHome } from '../agents/conversation.js';

/** The state folder of `kind` for this $HOME and environment; null: the kind keeps none (a shell). */
export function agentStateDir(kind: string, userHome: string, env: Readonly<Record<string, string | undefined>>): string | null {
  const rules = AGENT_KINDS[kind]?.conversation;
  if (!rules) return null;
  return conversationHome(rules, userHome, rules.home?.env ? env[rules.home.env.name] : undefined);
}

/** Every other kind's state folder (not one that holds, or lies in, the session's own). */
export function otherAgentStateDirs(kind: string, userHome: string, env: Readonly<Record<string, string | undefined>>): string[] {
  const own = agentStateDir(kind, userHome, env);
  const out: string[] = [];
  for (const name of Object.keys(AGENT_KINDS)) {
    if (name === kind) continue;
    const dir = agentStateDir(name, userHome, env);
    if (dir && dir !== own && !out.includes(dir)) out.push(dir);
  }
  return out;
}
