/**
 * Where the kinds' rules come from: the shipped files in src/core/agents/rules (the
 * same folder from the sources and from dist/, which sits beside src/), then
 * the user's own file. Read once per process: a runner keeps the rules it
 * started with, a new session or `agent-board explain` reads them afresh.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildKindRegistry, kindOf, type KindRegistry, type ResolvedKind, type RuleSource } from '../core/agents/kind-rules.js';

export const SHIPPED_RULES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'core', 'agents', 'rules');

/** The user's config folder: AGENT_BOARD_CONFIG_HOME, else ${XDG_CONFIG_HOME:-~/.config}/agent-board. */
export function configHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AGENT_BOARD_CONFIG_HOME) return path.resolve(env.AGENT_BOARD_CONFIG_HOME);
  const xdg = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME || os.homedir(), '.config');
  return path.join(xdg, 'agent-board');
}

/** The user's rules: add to or override a kind's patterns, or define a kind (docs/agents.md). */
export const userRulesFile = (env: NodeJS.ProcessEnv = process.env) => path.join(configHome(env), 'agents.json');

function readSources(files: readonly string[], errors: string[]): RuleSource[] {
  const out: RuleSource[] = [];
  for (const file of files) {
    try {
      out.push({ file, text: fs.readFileSync(file, 'utf8') });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') errors.push(`${file}: cannot read it: ${(err as Error).message}`);
    }
  }
  return out;
}

/** Reads the shipped rules and the user's file now. */
export function loadKindRegistry(env: NodeJS.ProcessEnv = process.env): KindRegistry {
  const errors: string[] = [];
  let shippedFiles: string[] = [];
  try {
    shippedFiles = fs.readdirSync(SHIPPED_RULES_DIR).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(SHIPPED_RULES_DIR, f));
  } catch (err) {
    errors.push(`${SHIPPED_RULES_DIR}: the shipped rules are missing: ${(err as Error).message}`);
  }
  const reg = buildKindRegistry(readSources(shippedFiles, errors), readSources([userRulesFile(env)], errors));
  return { ...reg, errors: [...errors, ...reg.errors] };
}

let loaded: KindRegistry | null = null;

/** This process's registry, read on first use. */
export function kindRegistry(): KindRegistry {
  loaded ??= loadKindRegistry();
  return loaded;
}

/** A kind by name from this process's registry (unknown names: a plain shell). */
export function kindNamed(name: string): ResolvedKind {
  return kindOf(kindRegistry(), name);
}
