/**
 * Where an agent kind's wiring files can go so that the program reads them.
 * Only Gemini CLI needs this: it reads the settings layer we give it
 * (GEMINI_CLI_SYSTEM_SETTINGS_PATH) only if the file and every folder above it
 * (by the path as given and by its real path; a symlinked folder must itself
 * be root's) are owned by root and not writable by group or others. Otherwise
 * it skips the file with a security warning on the user's screen and none of
 * our hooks fire. So a state home under /tmp (mode 1777) cannot hold it, and a
 * user other than root has no such folder at all. `writeWiringFiles` writes them where they go.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentKind } from '../../core/agents/agent-kinds.js';
import type { GeminiSystemLayer, WiringPlace } from '../../core/agents/agent-wiring.js';
import { makeDirs, writeFileAtomic, writing } from '../../state/write-errors.js';

/** Why Gemini would refuse a file root writes in `dir` (made 0700 if missing), or null when it would read it. */
export function geminiRefusal(dir: string): string | null {
  let existing = path.resolve(dir);
  while (!fs.existsSync(existing)) existing = path.dirname(existing);
  // The folders we would make below `existing` are ours (root's) and 0700.
  const chains = [ancestors(existing)];
  const real = fs.realpathSync(existing);
  if (real !== existing) chains.push(ancestors(real));
  for (const chain of chains) {
    for (const p of chain) {
      const l = fs.lstatSync(p);
      if (l.isSymbolicLink() && l.uid !== 0) return `the symlink ${p} is not root's`;
      const st = fs.statSync(p);
      if (st.uid !== 0) return `${p} is not owned by root`;
      if (st.mode & 0o022) return `${p} is writable by group or others (mode ${(st.mode & 0o7777).toString(8)})`;
    }
  }
  return null;
}

function ancestors(p: string): string[] {
  const out = [p];
  while (path.dirname(p) !== p) out.push((p = path.dirname(p)));
  return out;
}

/** Our own folders outside the state home that may qualify, best first: a runtime dir, then a cache. */
export function fallbackBases(): string[] {
  const bases = [
    process.env.XDG_RUNTIME_DIR ? path.join(process.env.XDG_RUNTIME_DIR, 'agent-board') : '',
    path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'agent-board'),
    // $HOME may be a temporary one; the account's own home may still be safe.
    path.join(os.userInfo().homedir, '.cache', 'agent-board'),
  ];
  return [...new Set(bases.filter((b) => b && path.isAbsolute(b)))];
}

/**
 * The folder for a session's wiring files: its own folder when the program
 * accepts it, else `<base>/wiring/<hash of the home>/<id>` under the first
 * base that qualifies (folders of sessions and homes that are gone are
 * pruned from there), else why there is none.
 */
export function wiringPlace(kind: AgentKind, home: string, id: string, sessionDir: string): WiringPlace {
  if (kind.wiring !== 'gemini') return { dir: sessionDir };
  // Our files are owned by whoever we are: only root's can pass.
  const uid = process.getuid?.() ?? -1;
  if (uid !== 0) return { none: `Gemini CLI reads a settings layer given by path only from root-owned files and folders, and we run as uid ${uid}` };
  const refused = geminiRefusal(sessionDir);
  if (refused === null) return { dir: sessionDir };
  const key = crypto.createHash('sha256').update(path.resolve(home)).digest('hex').slice(0, 16);
  for (const base of fallbackBases()) {
    const dir = path.join(base, 'wiring', key, id);
    if (geminiRefusal(dir) !== null) continue;
    prune(path.dirname(path.dirname(dir)));
    writing("the agent's settings folder", path.dirname(dir), () => {
      makeDirs(path.dirname(dir));
      // Which home these folders belong to, so they can be pruned once it is gone. Written once, and
      // whole (another `new` prunes while we start): a mark read half-written would be a home gone.
      const mark = path.join(path.dirname(dir), HOME_MARK);
      if (readMark(mark) !== path.resolve(home)) writeFileAtomic(mark, path.resolve(home));
    });
    return { dir };
  }
  return { none: `its settings layer must be in a folder only root can write to, and ${refused}` };
}

const HOME_MARK = 'home';

/** Removes the folders of sessions that no longer exist, and of state homes that are gone. */
function prune(wiringDir: string): void {
  for (const key of readdir(wiringDir)) {
    const keyDir = path.join(wiringDir, key);
    const home = readMark(path.join(keyDir, HOME_MARK));
    if (!home) continue; // not ours to judge, or one of an older version being written
    if (!fs.existsSync(home)) {
      fs.rmSync(keyDir, { recursive: true, force: true });
      continue;
    }
    for (const id of readdir(keyDir)) {
      // The mark and its temporary file (writeFileAtomic's) are no session's.
      if (id.startsWith(HOME_MARK)) continue;
      if (!fs.existsSync(path.join(home, 'sessions', id))) fs.rmSync(path.join(keyDir, id), { recursive: true, force: true });
    }
  }
}

/** The home a wiring folder belongs to, or '' when its mark is missing (not made yet, or not ours). */
function readMark(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function readdir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return []; // not made yet
  }
}

/** The platform's system settings file, as Gemini CLI finds it without us. */
function defaultSystemSettingsPath(): string {
  if (process.platform === 'darwin') return '/Library/Application Support/GeminiCli/settings.json';
  if (process.platform === 'win32') return 'C:\\ProgramData\\gemini-cli\\settings.json';
  return '/etc/gemini-cli/settings.json';
}

/**
 * The layer we replace when we point Gemini at our file: the administrator's
 * settings (merged into ours, so they still apply) and the defaults file that
 * Gemini would look for next to them (kept by path). An unreadable or invalid
 * file is left out: Gemini would have ignored it too.
 */
export function geminiSystemLayer(env: NodeJS.ProcessEnv = process.env): GeminiSystemLayer {
  const settingsPath = env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || defaultSystemSettingsPath();
  const defaultsPath = env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH || path.join(path.dirname(settingsPath), 'system-defaults.json');
  let settings: Record<string, unknown> | undefined;
  try {
    // Only a file Gemini itself would read: merged into ours, an unsafe one would pass its check.
    const st = fs.statSync(settingsPath);
    if (st.uid !== 0 || st.mode & 0o022 || geminiRefusal(path.dirname(settingsPath)) !== null) return { defaultsPath };
    const v: unknown = JSON.parse(fs.readFileSync(settingsPath, 'utf8'));
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) settings = v as Record<string, unknown>;
  } catch {
    // none, or not JSON
  }
  return { settings, defaultsPath };
}

/** Files an agent kind's wiring needs (Gemini's settings layer), 0600, in a folder made 0700. */
export function writeWiringFiles(dir: string, files: Record<string, string>): void {
  if (Object.keys(files).length) writing("the agent's settings folder", dir, () => makeDirs(dir));
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    writing("the agent's settings", file, () => writeFileAtomic(file, content));
  }
}
