/**
 * The new-session form's steps (used by the reducer, ./board-state.ts): its fields in order
 * (kind, name, command, folder, room, worktree, branch), two of them choices (the kind, cycled
 * with left/right or picked by its first letter; the worktree, toggled), the branch following the
 * name until the user edits it, and the command field following the kind while untouched (a
 * shell's $SHELL, nothing for an agent: its own program runs).
 */
import { NEW_FIELDS, type BoardState, type NewFields, type NewKind, type NewOverlay } from './board-types.js';

export function openNewForm(state: BoardState, defaults: NewFields, kinds: readonly NewKind[]): BoardState {
  const known = kinds.length ? kinds : [{ name: 'shell', program: null, installed: true }];
  const fields = { ...defaults, kind: known.some((k) => k.name === defaults.kind) ? defaults.kind : known[0]!.name };
  const overlay: NewOverlay = { kind: 'new', fields, kinds: known, shellCommand: defaults.command, focus: 0, branchEdited: false, proposedBranch: '', pending: false, error: null };
  return { ...state, overlay, message: null };
}

/** The field with the focus. */
export const focusedField = (o: NewOverlay): keyof NewFields => NEW_FIELDS[o.focus]!;

/** Fields the focus passes: the branch only with a worktree. */
const focusable = (o: NewOverlay, f: keyof NewFields) => f !== 'branch' || o.fields.worktree;

export function moveFocus(o: NewOverlay, by: 1 | -1): NewOverlay {
  const n = NEW_FIELDS.length;
  let focus = o.focus;
  do focus = (focus + by + n) % n;
  while (!focusable(o, NEW_FIELDS[focus]!));
  return { ...o, focus };
}

/** Another kind; the command field follows while it holds what the last kind started with. */
function withKind(o: NewOverlay, name: string): NewOverlay {
  const next = o.kinds.find((k) => k.name === name);
  if (!next || name === o.fields.kind) return o;
  const untouched = o.fields.command === '' || o.fields.command === o.shellCommand;
  const command = !untouched ? o.fields.command : name === 'shell' ? o.shellCommand : '';
  return { ...o, fields: { ...o.fields, kind: name, command }, error: null };
}

/** The sandbox field's choices, in the order left/right go through them: as config.json says, on, off. */
const SANDBOX_CHOICES = [undefined, 'on', 'off'] as const;

/** Left/right (or Space) on a choice: the next or previous kind; the worktree on or off; the sandbox's next choice. */
export function chooseStep(o: NewOverlay, by: 1 | -1): NewOverlay {
  if (o.pending) return o;
  const field = focusedField(o);
  if (field === 'worktree') return { ...o, fields: { ...o.fields, worktree: !o.fields.worktree }, error: null };
  if (field === 'sandbox') {
    const i = SANDBOX_CHOICES.indexOf(o.fields.sandbox);
    return { ...o, fields: { ...o.fields, sandbox: SANDBOX_CHOICES[(i + by + SANDBOX_CHOICES.length) % SANDBOX_CHOICES.length] }, error: null };
  }
  if (field !== 'kind') return o;
  const i = o.kinds.findIndex((k) => k.name === o.fields.kind);
  return withKind(o, o.kinds[(i + by + o.kinds.length) % o.kinds.length]!.name);
}

/** Text typed into the form: into its text fields; on the kind, the next kind with that first letter; on the worktree, y/n/Space. */
export function editNewForm(o: NewOverlay, edit: (value: string) => string, typed?: string): NewOverlay {
  if (o.pending) return o;
  const field = focusedField(o);
  if (field === 'kind') {
    const c = typed?.trim().slice(-1).toLowerCase();
    if (typed === ' ') return chooseStep(o, 1);
    if (!c) return o;
    const i = o.kinds.findIndex((k) => k.name === o.fields.kind);
    const order = [...o.kinds.slice(i + 1), ...o.kinds.slice(0, i + 1)];
    const hit = order.find((k) => k.name.toLowerCase().startsWith(c));
    return hit ? withKind(o, hit.name) : o;
  }
  if (field === 'worktree') {
    if (typed === ' ') return chooseStep(o, 1);
    const c = typed?.trim().slice(-1).toLowerCase();
    return c === 'y' || c === 'n' ? { ...o, fields: { ...o.fields, worktree: c === 'y' }, error: null } : o;
  }
  if (field === 'sandbox') return typed === ' ' ? chooseStep(o, 1) : o;
  if (field === 'branch') {
    // The first edit starts from the branch the form showed (the proposal), and ends its following the name.
    const base = o.branchEdited ? o.fields.branch : o.proposedBranch;
    return { ...o, fields: { ...o.fields, branch: edit(base) }, branchEdited: true, error: null };
  }
  return { ...o, fields: { ...o.fields, [field]: edit(o.fields[field]) }, error: null };
}

/** The branch the plan proposes for the name as typed: shown until the user edits the branch. */
export function proposeBranch(o: NewOverlay, branch: string): NewOverlay {
  return o.proposedBranch === branch ? o : { ...o, proposedBranch: branch };
}
