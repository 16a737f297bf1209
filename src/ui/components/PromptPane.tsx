/** The prompt line: who it goes to, the line, and once sent how it went in each session. */
import { Box, Text } from 'ink';
import { PaneTitle } from './PaneTitle.js';
import type { PromptOverlay, PromptStatus } from '../../core/board/board-types.js';
import { fit, textWidth } from '../text-width.js';
import { TextField } from './TextField.js';

export interface PromptPaneProps {
  prompt: PromptOverlay;
  /** Rows under the title line. */
  rows: number;
  width: number;
}

const STATUS_COLOR: Record<PromptStatus, string | undefined> = {
  sending: undefined,
  applied: 'green',
  accepted: 'green',
  unconfirmed: 'yellow',
  'not typed': 'red',
  error: 'red',
};

/**
 * The prompt line in place of the preview: who it goes to and the line;
 * once sent, how it went in each session (typed, journaled, cannot tell, or
 * why not).
 */
export function PromptPane({ prompt: o, rows, width }: PromptPaneProps) {
  const who = o.targets.map((t) => t.name).join(', ');
  const nameWidth = Math.min(20, Math.max(...o.targets.map((t) => textWidth(t.name))));
  return (
    <Box flexDirection="column" width={width} height={rows + 1}>
      <PaneTitle text={`prompt to ${who}`} width={width} />
      {o.results.length === 0 ? (
        <>
          <Box height={1} width={width}>
            <Text color="cyan" bold>› </Text>
            <TextField value={o.input} focused width={Math.max(5, width - 2)} />
          </Box>
          <Text dimColor wrap="truncate-end">
            Enter types it{o.targets.length === 1 ? '' : ` (into all ${o.targets.length})`} + Enter, exactly once, as send does; Esc cancels
          </Text>
        </>
      ) : (
        <>
          <Text wrap="truncate-end">
            <Text dimColor>sent: </Text>
            {o.sent}
          </Text>
          {o.results.slice(0, Math.max(0, rows - 1)).map((r) => (
            <Text key={r.id} wrap="truncate-end">
              {'  ' + fit(r.name, nameWidth, true) + '  '}
              <Text color={STATUS_COLOR[r.status]} bold={r.status !== 'sending'}>{r.status === 'sending' ? 'sending…' : r.status}</Text>
              {r.detail ? <Text dimColor>{`  ${r.detail}`}</Text> : null}
            </Text>
          ))}
        </>
      )}
    </Box>
  );
}
