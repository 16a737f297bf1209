/**
 * The new-session form: the kind (which agent CLIs are installed), a name, the command or the
 * agent's arguments, the folder, the room, and a new worktree with its branch (proposed from the
 * name) when the folder is in a git repository; under them, what it will run, where, and the same
 * session as an `agent-board new` line, worked out as the user types by the code `new` runs
 * (BoardActions.planNew); what stops it is one red line.
 */
import { Box, Text } from 'ink';
import { useEffect, useMemo } from 'react';
import { NEW_FIELDS, type NewFields, type NewOverlay } from '../../core/board/board-types.js';
import { branchForSession } from '../../core/worktree/worktree.js';
import { useBoardControl } from '../contexts/ActionsContext.js';
import { useBoardState } from '../contexts/BoardStateContext.js';
import { formInput } from '../new-form-input.js';
import { cut } from '../text-width.js';
import { TextField } from './TextField.js';
import type { NewSessionPlan } from '../../client/feed/board-api.js';
import { SANDBOX_MARK, sandboxBrief } from '../../core/sandbox/sandbox-text.js';

const LABEL = 12;

function label(f: keyof NewFields, o: NewOverlay): string {
  if (f === 'command') return ownProgram(o) ? 'arguments' : 'command';
  return f === 'cwd' ? 'folder' : f;
}

const ownProgram = (o: NewOverlay) => o.kinds.find((k) => k.name === o.fields.kind)?.program != null;

function hint(f: keyof NewFields, o: NewOverlay, repo: string | null): string {
  switch (f) {
    case 'kind': return `←→ or its first letter: ${o.kinds.map((k) => k.name).join(', ')}`;
    case 'name': return 'optional; letters, digits, . _ -';
    case 'command':
      if (ownProgram(o)) return `extra arguments for ${o.fields.kind}, as in a shell (optional)`;
      return o.fields.kind === 'demo' ? 'empty: the demo agent' : 'program and arguments, as in a shell; `claude` in it starts a claude session';
    case 'cwd': return 'the folder it runs in (with a worktree: the repository)';
    case 'room': return 'its chat room: sessions of a room talk through its chat';
    case 'worktree': return repo ? '←→, Space or y/n: its own checkout on a new branch' : 'the folder is not in a git repository';
    case 'branch': return o.branchEdited ? 'the new branch' : 'the new branch; it follows the name until you edit it';
    case 'sandbox': return "←→ or Space: as config.json says, on (bubblewrap, network allowlist), off (docs/sandbox.md)";
  }
}

function KindValue({ o }: { o: NewOverlay }) {
  const k = o.kinds.find((x) => x.name === o.fields.kind);
  const note = !k || k.program === null ? (k?.name === 'shell' ? 'a command line' : '') : k.installed ? `${k.program} installed` : `${k.program} not installed`;
  return (
    <Text>
      <Text color="cyan">‹ </Text>
      <Text bold>{o.fields.kind}</Text>
      <Text color="cyan"> ›</Text>
      {note ? <Text dimColor={k?.installed !== false} color={k?.installed === false ? 'red' : undefined}>{`  ${note}`}</Text> : null}
    </Text>
  );
}

/** The sandbox choice, and what it comes to (config.json's default says which it is). */
function SandboxValue({ o, plan, width }: { o: NewOverlay; plan: NewSessionPlan; width: number }) {
  const choice = o.fields.sandbox === 'on' ? 'on' : o.fields.sandbox === 'off' ? 'off' : 'as config.json says';
  const now = plan.sandbox ? `${SANDBOX_MARK} sandboxed: ${sandboxBrief(plan.sandbox)}` : 'not sandboxed';
  return (
    <Text>
      <Text color="cyan">‹ </Text>
      <Text bold>{choice}</Text>
      <Text color="cyan"> ›</Text>
      <Text dimColor>{cut(`  ${now}`, Math.max(0, width - choice.length - 4))}</Text>
    </Text>
  );
}

export interface NewSessionFormProps {
  form: NewOverlay;
  width: number;
}

export function NewSessionForm({ form: o, width }: NewSessionFormProps) {
  const { actions } = useBoardControl();
  const { sessions, dispatch } = useBoardState();
  const taken = useMemo(() => sessions.filter((s) => !s.host).map((s) => s.name), [sessions]);
  // The plan as the user types: a few stats and a PATH lookup, no git, no session read.
  const plan = useMemo(() => actions.planNew(formInput(o), taken), [actions, o, taken]);
  const proposal = branchForSession(plan.name || 'session');
  useEffect(() => {
    if (o.proposedBranch !== proposal) dispatch({ type: 'new-proposal', branch: proposal });
  }, [o.proposedBranch, proposal, dispatch]);
  const inner = Math.max(20, width - 4);
  const fieldWidth = Math.max(10, inner - LABEL);
  const focus = NEW_FIELDS[o.focus]!;
  const shown = NEW_FIELDS.filter((f) => f !== 'branch' || o.fields.worktree);
  const value = (f: keyof NewFields) => {
    const focused = f === focus && !o.pending;
    switch (f) {
      case 'kind':
        return <KindValue o={o} />;
      case 'worktree':
        return plan.repo || o.fields.worktree ? (
          <Text>
            <Text color="cyan">{o.fields.worktree ? '[x]' : '[ ]'}</Text>
            <Text dimColor={!o.fields.worktree}>{cut(` in a new worktree${plan.repo ? ` of ${plan.repo}` : ''}`, fieldWidth - 3)}</Text>
          </Text>
        ) : (
          <Text dimColor>— (not in a git repository)</Text>
        );
      case 'branch':
        return <TextField value={o.branchEdited ? o.fields.branch : o.proposedBranch} focused={focused} width={fieldWidth} />;
      case 'sandbox':
        return <SandboxValue o={o} plan={plan} width={fieldWidth} />;
      case 'name':
        return o.fields.name || focused ? (
          <Text>
            <TextField value={o.fields.name} focused={focused} width={Math.max(10, fieldWidth - plan.name.length - 3)} />
            {o.fields.name ? null : <Text dimColor>{` ${plan.name}`}</Text>}
          </Text>
        ) : (
          <Text dimColor>{plan.name}</Text>
        );
      default:
        return <TextField value={o.fields[f] ?? ''} focused={focused} width={fieldWidth} />;
    }
  };
  const where = plan.branch ? `a new worktree on ${plan.branch}` : o.fields.cwd;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1} width={width}>
      <Text bold>New session</Text>
      {shown.map((f) => (
        <Box key={f}>
          <Box width={LABEL} flexShrink={0}>
            <Text color={f === focus ? 'cyan' : undefined}>{f === focus ? '›' : ' '} {label(f, o)}</Text>
          </Box>
          {value(f)}
        </Box>
      ))}
      <Text dimColor wrap="truncate-end">{' '.repeat(LABEL)}{hint(focus, o, plan.repo)}</Text>
      <Text> </Text>
      {/* Wrapped, not cut: what runs is the one line a user checks before Enter, and a long
          install path would otherwise push its arguments out of sight. */}
      <Text wrap="wrap">
        <Text dimColor>{'runs'.padEnd(9)}</Text>
        {plan.runs}
        {plan.kind !== 'shell' ? <Text dimColor>{` (${plan.kind}${ownProgram(o) || plan.kind !== o.fields.kind ? ', with its hooks and chat tools' : ''})`}</Text> : null}
      </Text>
      <Text wrap="truncate-end">
        <Text dimColor>{'in'.padEnd(9)}</Text>
        {`${where}, room ${o.fields.room || 'default'}, as ${plan.name}`}
      </Text>
      <Text wrap="wrap">
        <Text dimColor>{'same as'.padEnd(9)}</Text>
        {plan.line}
      </Text>
      {o.pending ? <Text color="yellow">starting…</Text> : null}
      {o.error || plan.problem ? <Text color="red" wrap="truncate-end">{o.error ?? plan.problem}</Text> : null}
    </Box>
  );
}
