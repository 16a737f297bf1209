import type { NewSessionInput } from '../client/feed/board-api.js';
import type { NewOverlay } from '../core/board/board-types.js';

/** The new-session form's fields as the plan and create take them (src/client/session/new-session.ts formRequest). */
export function formInput(o: NewOverlay): NewSessionInput {
  const f = o.fields;
  return {
    kind: f.kind,
    name: f.name.trim() || undefined,
    command: f.command,
    cwd: f.cwd.trim() || '.',
    room: f.room.trim(),
    worktree: f.worktree,
    branch: o.branchEdited ? f.branch.trim() : undefined,
    ...(f.sandbox ? { sandbox: f.sandbox } : {}),
  };
}
