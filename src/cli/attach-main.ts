/**
 * The start-up entry of `attach` (dist/bundle/attach.js, scripts/bundle.mjs): a person waits on
 * it, and the first frame comes sooner without the ~280 KB hot bundle, most of it commander. It
 * reads the line itself only in the plain forms (a session, and the command's own options each
 * once); anything else (help, a typo, an option of the program) is left to commander in the hot
 * bundle, which bin/agent-board runs when `main` answers false. commands/attach.ts declares the
 * same options; test/unit/attach-main.test.ts checks both read every plain form alike.
 */
import type { AttachCliOptions } from './attach-to.js';
import { attachTo } from './attach-to.js';
import { reportFailure } from './fail.js';

/** Each option of `attach` by how it is written, and the key commander gives its value under. */
const FLAGS: Record<string, 'readOnly'> = { '-r': 'readOnly', '--read-only': 'readOnly' };
const VALUED: Record<string, 'detachKey' | 'host'> = { '--detach-key': 'detachKey', '--host': 'host' };

/** The words after `attach` as commander's action would get them, or null when only commander should read them. */
export function quickAttachArgs(words: readonly string[]): { ref: string; options: AttachCliOptions } | null {
  let ref: string | null = null;
  const options: AttachCliOptions = {};
  const seen = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (!w.startsWith('-')) {
      if (ref !== null || w === '') return null;
      ref = w;
      continue;
    }
    const eq = w.indexOf('=');
    const name = eq > 0 && w.startsWith('--') ? w.slice(0, eq) : w;
    const key = FLAGS[name] ?? VALUED[name];
    if (key === undefined || seen.has(key)) return null;
    seen.add(key);
    if (name in FLAGS) {
      if (eq > 0 && w.startsWith('--')) return null; // --read-only=x: commander's own message
      options.readOnly = true;
      continue;
    }
    const value = eq > 0 ? w.slice(eq + 1) : words[++i];
    if (value === undefined || value === '' || value.startsWith('-')) return null;
    options[key as 'detachKey' | 'host'] = value;
  }
  return ref === null ? null : { ref, options };
}

/** Runs `attach` when the line is a plain one (true); false leaves the whole line to the hot bundle. */
export function main(argv: readonly string[]): boolean {
  const q = argv[2] === 'attach' ? quickAttachArgs(argv.slice(3)) : null;
  if (!q) return false;
  void attachTo(q.ref, q.options).catch(reportFailure);
  return true;
}
