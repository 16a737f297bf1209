/** The help overlay: every key, drawn from the binding table itself. */
import { Box, Text } from 'ink';
import { BINDINGS, Command, type Binding } from '../../core/board/keybindings.js';
import { ATTENTION_COLOR, ATTENTION_MARK } from '../status-style.js';
import { SANDBOX_COLOR } from '../row-columns.js';
import { SANDBOX_MARK } from '../../core/sandbox/sandbox-text.js';

export interface HelpOverlayProps {
  detachLabel: string;
  rows: number;
  width: number;
}

/** A table of keys; `{detach}` in a help text is the detach key (`i`: type-through ends with it). */
function Section({ title, bindings, detachLabel = '', width }: { title: string; bindings: readonly Binding[]; detachLabel?: string; width: number }) {
  return (
    <Box flexDirection="column" width={width} flexShrink={0}>
      <Text bold>{title}</Text>
      {bindings.map((b) => (
        <Text key={b.command} wrap="truncate-end">
          <Text color="cyan">{b.label.padEnd(10)}</Text>
          {b.help.replace('{detach}', detachLabel)}
        </Text>
      ))}
    </Box>
  );
}

const LINE_EDITS = new Set([Command.DeleteBack, Command.ClearField]);
/** The chat pane's own keys (its line edits as in the forms). */
const CHAT_KEYS = BINDINGS.chat.filter((b) => !LINE_EDITS.has(b.command));
/** The board's keys that talk to the selected session's program from the board. */
const SESSION_COMMANDS = new Set([Command.Answer, Command.TypeInto, Command.Mark, Command.Prompt, Command.Explain]);
/** h is told on the demo's walkthrough line, the one thing it hides; L in the footer while the selected session is limited, and by explain (room at 80x24). */
/** The page keys share a row, and so do first and last (room at 80x24). */
const BOARD_KEYS = BINDINGS.list
  .filter((b) => !SESSION_COMMANDS.has(b.command) && b.command !== Command.HideWalkthrough && b.command !== Command.ResumeAfterLimit && b.command !== Command.PageDown && b.command !== Command.Last)
  .map((b) => (b.command === Command.PageUp ? { ...b, label: 'PgUp PgDn', help: 'a page up, a page down' } : b.command === Command.First ? { ...b, label: 'Home End', help: 'first, last session (g, G)' } : b));
const SESSION_KEYS = BINDINGS.list.filter((b) => SESSION_COMMANDS.has(b.command));
/** Forms, the filter and the prompt line edit alike; their line edits need no telling here (room at 80x24). */
const FORM_KEYS = BINDINGS.form.filter((b) => !LINE_EDITS.has(b.command) && b.command !== Command.PrevChoice).map((b) => (b.command === Command.NextChoice ? { ...b, label: '← →', help: 'choose (kind, worktree)' } : b));

/**
 * Every key, from the binding table itself: board keys beside the keys that
 * reach into a session, form and chat keys. Sections sit without blank rows
 * between them so all of it fits 80x24.
 */
export function HelpOverlay({ detachLabel, rows, width }: HelpOverlayProps) {
  const inner = width - 2;
  const twoColumns = inner >= 76;
  const left = twoColumns ? Math.min(52, Math.floor(inner * 0.55)) : inner;
  // The blank line before the notes only where it fits: at 80x24 every row is a key (the Board title went otherwise).
  const right = 3 + FORM_KEYS.length + SESSION_KEYS.length + CHAT_KEYS.length;
  const tall = twoColumns ? Math.max(1 + BOARD_KEYS.length, right) : 1 + BOARD_KEYS.length + right;
  const blank = rows >= tall + 4;
  return (
    <Box flexDirection="column" height={rows} width={width} overflow="hidden" paddingX={1}>
      <Box flexDirection={twoColumns ? 'row' : 'column'} gap={twoColumns ? 2 : 0}>
        <Section title="Board" bindings={BOARD_KEYS} width={left} />
        <Box flexDirection="column" flexShrink={0}>
          <Section title="Forms and the filter" bindings={FORM_KEYS} width={twoColumns ? inner - left - 2 : inner} />
          <Section title="Into the selected session" bindings={SESSION_KEYS} detachLabel={detachLabel} width={twoColumns ? inner - left - 2 : inner} />
          <Section title="Chat (c)" bindings={CHAT_KEYS} width={twoColumns ? inner - left - 2 : inner} />
        </Box>
      </Box>
      {blank ? <Text> </Text> : null}
      <Text wrap="truncate-end">
        <Text color={ATTENTION_COLOR} bold>{ATTENTION_MARK}</Text> finished or needs you, not seen: moving onto it clears it;{' '}
        <Text color={SANDBOX_COLOR}>{SANDBOX_MARK}</Text> sandboxed
      </Text>
      <Text wrap="wrap">
        While attached, <Text color="cyan">{detachLabel}</Text> comes back here; the session keeps running.
      </Text>
      <Text dimColor>Esc, ? or q closes this help.</Text>
    </Box>
  );
}
