/**
 * The image a container-sandboxed session runs in when `--sandbox container` names none: the
 * repository's devcontainer.json `image` (https://containers.dev/implementors/json_reference/).
 * Looked for from the session's folder up to its repository's top (the folder holding `.git`),
 * the nearest first: `.devcontainer/devcontainer.json`, then `.devcontainer.json`. A file that
 * builds its image (`build.dockerfile`, `dockerFile`, `dockerComposeFile`) is not run: building is
 * not done yet, and the answer says so in one line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseJsonc } from '../../core/sandbox/jsonc.js';

export type DevcontainerImage =
  /** `image` of this file. */
  | { found: 'image'; image: string; file: string }
  /** A file that is there but names no image to run: why, in one line. */
  | { found: 'unusable'; file: string; line: string }
  | { found: 'none' };

const PLACES = [path.join('.devcontainer', 'devcontainer.json'), '.devcontainer.json'];

/** The devcontainer file nearest to `cwd`, up to the repository's top; null when there is none. */
export function findDevcontainer(cwd: string): string | null {
  let dir = path.resolve(cwd);
  for (;;) {
    for (const p of PLACES) {
      const file = path.join(dir, p);
      if (fs.existsSync(file)) return file;
    }
    const parent = path.dirname(dir);
    if (fs.existsSync(path.join(dir, '.git')) || parent === dir) return null;
    dir = parent;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the devcontainer file says about `image`. */
export function devcontainerImage(cwd: string): DevcontainerImage {
  const file = findDevcontainer(cwd);
  if (!file) return { found: 'none' };
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    return { found: 'unusable', file, line: `${file} cannot be read: ${(err as Error).message}` };
  }
  const parsed = parseJsonc(text);
  if (!parsed.ok) return { found: 'unusable', file, line: `${file} is not JSON with comments: ${parsed.error}` };
  const v = parsed.value;
  if (!isObject(v)) return { found: 'unusable', file, line: `${file} holds no object` };
  if (typeof v.image === 'string' && v.image.trim()) return { found: 'image', image: v.image.trim(), file };
  const builds = (isObject(v.build) && typeof v.build.dockerfile === 'string') || typeof v.dockerFile === 'string';
  if (builds) return { found: 'unusable', file, line: `${file} builds its image from a Dockerfile, which agent-board does not do yet: build it and give the tag (--sandbox container:IMAGE)` };
  if (v.dockerComposeFile !== undefined) return { found: 'unusable', file, line: `${file} uses docker compose, which agent-board does not run: give an image (--sandbox container:IMAGE)` };
  return { found: 'unusable', file, line: `${file} names no image: give one (--sandbox container:IMAGE)` };
}
