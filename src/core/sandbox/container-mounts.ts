/**
 * What a container-sandboxed session sees of the host, each at its own path (docs/sandbox.md,
 * "Container backend"). The image is the root, so nothing needs hiding as under bubblewrap's
 * read-only `/`: the list is what is mounted in. The writable set is bubblewrap's (the worktree,
 * the kind's state folder, the chat room folder, the worktree's git pieces: research §3.2), and
 * since the repository's common git folder is not in the image, it comes in read-only first, the
 * branch's writable pieces and the pinned refs of the other branches over it.
 */
import type { GitPieces } from './bwrap-args.js';
import type { ContainerMount } from './container-args.js';
import { gitMountOps, isWithin, type MountOp } from './sandbox-mounts.js';

export interface ContainerPlaces {
  cwd: string;
  /** agent-board's folder of this session (read-only: host.json there says it is sandboxed). */
  sessionDir: string;
  socketPath: string;
  /** The session's chat room folder (writable: chat posts). */
  roomDir: string | null;
  /** The kind's own state folder (writable), if it keeps one. */
  stateDir: string | null;
  git: GitPieces | null;
  /** The deny list; only what lies under a mounted path matters (the rest is not in the container at all). */
  denied: readonly string[];
  /** `--network allowlist`: the proxy's Unix socket. */
  proxySocket: string | null;
}

/** What is at a path on the host: a folder, a file (a socket too), or nothing. */
export type PathKind = 'dir' | 'file' | null;

/** The mounts, a path that does not exist dropped (docker would make it, as root); the later of two at one path wins. */
export function containerMounts(p: ContainerPlaces, typeOf: (path: string) => PathKind): ContainerMount[] {
  const ops: MountOp[] = [];
  const ro = (path: string) => ops.push({ kind: 'ro', path });
  const rw = (path: string) => ops.push({ kind: 'rw', path });
  ro(p.sessionDir);
  if (!isWithin(p.socketPath, p.sessionDir)) ro(p.socketPath);
  if (p.proxySocket) ro(p.proxySocket);
  if (p.roomDir) rw(p.roomDir);
  if (p.stateDir) rw(p.stateDir);
  rw(p.cwd);
  if (p.git) {
    // Unlike bubblewrap's read-only root, a container has no repository until it is mounted.
    ro(p.git.commonDir);
    ops.push(...gitMountOps(p.git));
  }
  const shown = ops.map((o) => o.path);
  for (const d of p.denied) if (shown.some((s) => isWithin(d, s) && d !== s)) ops.push({ kind: 'hide', path: d });

  const last = new Map<string, MountOp>();
  for (const op of ops) {
    last.delete(op.path);
    last.set(op.path, op);
  }
  const out: ContainerMount[] = [];
  for (const op of last.values()) {
    const type = typeOf(op.path);
    if (!type) continue;
    out.push(op.kind === 'hide' ? { kind: 'hide', path: op.path, dir: type === 'dir' } : { kind: op.kind, path: op.path });
  }
  return out;
}
