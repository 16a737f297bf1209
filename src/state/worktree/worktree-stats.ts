/**
 * Reading what git says of a worktree's work (`diff --numstat -z`, `status
 * --porcelain -z`) and counting a new file's lines as git would: the pieces
 * of a count (src/state/worktree/worktree-count.ts).
 */
import fs from 'node:fs';

/** Untracked files bigger than this are counted as files, their lines not read. */
const MAX_COUNTED_BYTES = 1024 * 1024;

/** Lines of a new file as git would count them added: newline-terminated lines, plus a last unterminated one; binary counts 0. */
export function countLines(file: string): number {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return 0; // gone between status and here: nothing to count
  }
  if (!st.isFile() || st.size === 0 || st.size > MAX_COUNTED_BYTES) return 0;
  const buf = fs.readFileSync(file);
  if (buf.includes(0)) return 0;
  let n = 0;
  for (const b of buf) if (b === 10) n++;
  return buf[buf.length - 1] === 10 ? n : n + 1;
}

/** `git status --porcelain -z` entries: [XY, path]; a rename's or copy's original path is skipped. */
export function parseStatus(z: string): Array<{ xy: string; path: string }> {
  const parts = z.split('\0');
  const out: Array<{ xy: string; path: string }> = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.length < 4) continue;
    const xy = p.slice(0, 2);
    out.push({ xy, path: p.slice(3) });
    if (xy[0] === 'R' || xy[0] === 'C') i++;
  }
  return out;
}

/** `git diff --numstat -z --no-renames`, file by file: each path's lines added and removed (a binary file: 0 and 0). */
export function numstatByPath(z: string): Map<string, { added: number; removed: number }> {
  const out = new Map<string, { added: number; removed: number }>();
  for (const part of z.split('\0')) {
    const m = /^(-|\d+)\t(-|\d+)\t(.+)$/s.exec(part);
    if (m) out.set(m[3]!, { added: m[1] === '-' ? 0 : Number(m[1]), removed: m[2] === '-' ? 0 : Number(m[2]) });
  }
  return out;
}
