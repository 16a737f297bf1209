/** The user's config.json (src/core/user-config.ts says what is in it), read from the config home. */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_CONFIG, parseUserConfig, type ParsedConfig } from '../core/user-config.js';
import { configHome } from './kind-files.js';

export const userConfigFile = (env: NodeJS.ProcessEnv = process.env) => path.join(configHome(env), 'config.json');

/** The settings now; a missing file is the defaults, an unreadable one the defaults and one error line. */
export function readUserConfig(env: NodeJS.ProcessEnv = process.env): ParsedConfig {
  const file = userConfigFile(env);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const errors = code === 'ENOENT' ? [] : [`${file}: cannot read it (${(err as Error).message}); using the defaults`];
    return { config: { ...DEFAULT_CONFIG, hosts: [], prices: {}, resumeAfterLimit: {} }, errors };
  }
  return parseUserConfig(text, file);
}
