/**
 * `agent-board diff` as text: the patch in colour (`--color`), the per-file
 * counts (`--stat`) and the JSON shape (`--json`). Pure.
 */
import { fileCounts, fileLabel, type DiffModel } from './diff-model.js';

const SGR = { bold: '\x1b[1m', red: '\x1b[31m', green: '\x1b[32m', cyan: '\x1b[36m', dim: '\x1b[2m', reset: '\x1b[0m' };

/**
 * git's patch with its parts coloured as git colours them: file headers bold,
 * hunk headers cyan, additions green, removals red. A line's part is known by
 * where it is: inside a hunk a line starts with a space, `+`, `-` or `\`, so
 * a `diff --git` there is the next file's header.
 */
export function colorPatch(patch: string): string {
  let inHunk = false;
  const lines = patch.split('\n');
  const last = lines.length - 1;
  return lines
    .map((line, i) => {
      if (i === last && line === '') return line;
      if (line.startsWith('diff --git ')) inHunk = false;
      if (line.startsWith('@@')) {
        inHunk = true;
        return `${SGR.cyan}${line}${SGR.reset}`;
      }
      if (!inHunk) return `${SGR.bold}${line}${SGR.reset}`;
      if (line.startsWith('+')) return `${SGR.green}${line}${SGR.reset}`;
      if (line.startsWith('-')) return `${SGR.red}${line}${SGR.reset}`;
      if (line.startsWith('\\')) return `${SGR.dim}${line}${SGR.reset}`;
      return line;
    })
    .join('\n');
}

/** One line per file (`+12 -3  src/a.ts`, `binary  logo.png`, status for added, deleted and renamed ones), then the totals. */
export function statText(model: DiffModel): string {
  const counts = model.files.map(fileCounts);
  const width = Math.max(0, ...counts.map((c) => c.length));
  const lines = model.files.map((f, i) => {
    const status = f.status === 'modified' ? '' : `  (${f.status})`;
    return `${counts[i]!.padEnd(width)}  ${fileLabel(f)}${status}`;
  });
  const n = model.files.length;
  lines.push(`${n} file${n === 1 ? '' : 's'} changed, ${model.added} insertion${model.added === 1 ? '' : 's'}(+), ${model.removed} deletion${model.removed === 1 ? '' : 's'}(-)`);
  return lines.join('\n');
}

/** The files with their counts and hunks (lines as `+text`, `-text`, ` text`, with both sides' numbers). */
export function diffJson(model: DiffModel) {
  return {
    files: model.files.map((f) => ({
      path: f.path,
      oldPath: f.oldPath,
      status: f.status,
      binary: f.binary,
      modeChange: f.modeChange,
      added: f.added,
      removed: f.removed,
      hunks: f.hunks.map((h) => ({ header: h.header, lines: h.lines.map((l) => ({ kind: l.kind, text: l.text, old: l.oldNo, new: l.newNo })) })),
    })),
    added: model.added,
    removed: model.removed,
  };
}
