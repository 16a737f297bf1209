/**
 * A session's diff as data: the files it changed, their counts, hunks and
 * lines with both sides' line numbers. Built from the patches a unified-diff
 * parser gives (jsdiff's parsePatch, in src/client/worktree/worktree-diff.ts); the
 * shape taken here is structural, so the core needs no parser and no Node.
 */

/** What a parser gives for one file of a git patch (jsdiff's StructuredPatch fits it). */
export interface PatchLike {
  oldFileName?: string | undefined;
  newFileName?: string | undefined;
  hunks: readonly { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: readonly string[] }[];
  isRename?: boolean;
  isCopy?: boolean;
  isCreate?: boolean;
  isDelete?: boolean;
  isBinary?: boolean;
  oldMode?: string;
  newMode?: string;
}

export type DiffLineKind = 'add' | 'del' | 'ctx' | 'note';

export interface DiffLine {
  kind: DiffLineKind;
  /** The line without its `+`, `-` or space (a note: `\ No newline at end of file` as it is). */
  text: string;
  /** Its number on the old side (none for an added line or a note). */
  oldNo: number | null;
  /** Its number on the new side (none for a removed line or a note). */
  newNo: number | null;
  /** The new side's line where it is: its own number, or for a removed line the new line it stood before. */
  newAt: number;
}

export interface DiffHunk {
  /** `@@ -1,3 +1,4 @@` */
  header: string;
  oldStart: number;
  newStart: number;
  lines: readonly DiffLine[];
}

export type DiffFileStatus = 'added' | 'deleted' | 'modified' | 'renamed' | 'copied';

export interface DiffFile {
  /** The path on the new side (the old one for a deleted file), from the repository's top. */
  path: string;
  /** Where it was, for a rename or a copy. */
  oldPath: string | null;
  status: DiffFileStatus;
  binary: boolean;
  /** `100644 → 100755` when only or also its mode changed. */
  modeChange: string | null;
  added: number;
  removed: number;
  hunks: readonly DiffHunk[];
}

export interface DiffModel {
  files: readonly DiffFile[];
  added: number;
  removed: number;
}

/** `a/src/x.ts` -> `src/x.ts`; /dev/null -> null. */
function sidePath(name: string | undefined, prefix: string): string | null {
  if (name === undefined || name === '/dev/null') return null;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

function statusOf(p: PatchLike): DiffFileStatus {
  if (p.isCreate) return 'added';
  if (p.isDelete) return 'deleted';
  if (p.isRename) return 'renamed';
  if (p.isCopy) return 'copied';
  return 'modified';
}

/** git's header: a side with no lines is numbered by the line before it (jsdiff gives the one after). */
const side = (start: number, lines: number) => `${lines === 0 ? start - 1 : start},${lines}`;
const hunkHeader = (h: PatchLike['hunks'][number]) => `@@ -${side(h.oldStart, h.oldLines)} +${side(h.newStart, h.newLines)} @@`;

function hunkOf(h: PatchLike['hunks'][number]): DiffHunk {
  let oldNo = h.oldStart;
  let newNo = h.newStart;
  const lines = h.lines.map((raw): DiffLine => {
    const text = raw.slice(1);
    switch (raw[0]) {
      case '+':
        return { kind: 'add', text, oldNo: null, newNo, newAt: newNo++ };
      case '-':
        return { kind: 'del', text, oldNo: oldNo++, newNo: null, newAt: newNo };
      case '\\':
        return { kind: 'note', text: raw, oldNo: null, newNo: null, newAt: Math.max(1, newNo - 1) };
      default:
        return { kind: 'ctx', text, oldNo: oldNo++, newNo, newAt: newNo++ };
    }
  });
  return { header: hunkHeader(h), oldStart: h.oldStart, newStart: h.newStart, lines };
}

export function diffFile(p: PatchLike): DiffFile {
  const oldPath = sidePath(p.oldFileName, 'a/');
  const newPath = sidePath(p.newFileName, 'b/');
  const status = statusOf(p);
  const hunks = p.hunks.map(hunkOf);
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    for (const l of h.lines) {
      if (l.kind === 'add') added++;
      else if (l.kind === 'del') removed++;
    }
  }
  const moved = status === 'renamed' || status === 'copied';
  const modeChange = p.oldMode && p.newMode && p.oldMode !== p.newMode ? `${p.oldMode} → ${p.newMode}` : null;
  return { path: newPath ?? oldPath ?? '?', oldPath: moved ? oldPath : null, status, binary: p.isBinary ?? false, modeChange, added, removed, hunks };
}

/** The model of a parsed patch; an empty patch parses as one file with no name and no hunk, which is none. */
export function diffModel(patches: readonly PatchLike[]): DiffModel {
  const files = patches.filter((p) => p.oldFileName !== undefined || p.newFileName !== undefined || p.hunks.length > 0).map(diffFile);
  return { files, added: files.reduce((n, f) => n + f.added, 0), removed: files.reduce((n, f) => n + f.removed, 0) };
}

/** `src/a.ts`, `old.ts → new.ts`: how a file is named in lists. */
export const fileLabel = (f: DiffFile): string => (f.oldPath ? `${f.oldPath} → ${f.path}` : f.path);

/** `+12 -3`, `binary`, `mode 100644 → 100755`: a file's counts as lists show them. */
export function fileCounts(f: DiffFile): string {
  if (f.binary) return 'binary';
  if (f.hunks.length === 0) return f.modeChange ? `mode ${f.modeChange}` : f.status === 'renamed' || f.status === 'copied' ? f.status : 'empty';
  return `+${f.added} -${f.removed}`;
}
