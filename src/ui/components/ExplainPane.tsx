/** The explain overlay: why the selected session has its state, in place of the preview. */
import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { PaneTitle } from './PaneTitle.js';
import type { ExplainOverlay } from '../../core/board/board-types.js';
import { explainLines, EXPLAIN_LABEL_WIDTH as LABEL } from '../../core/agents/explain-text.js';
import { usageLine } from '../../core/usage/usage-text.js';
import type { SessionView } from '../../state/host-store.js';
import { useBoardControl } from '../contexts/ActionsContext.js';
import type { SessionUsage } from '../../core/usage/usage-types.js';
import { useNow } from '../hooks/useNow.js';
import { cut, fit } from '../text-width.js';

export interface ExplainPaneProps {
  explain: ExplainOverlay;
  /** The session explained, as the feed has it: its usage limit is said from its record. */
  session?: SessionView | null;
  rows: number;
  width: number;
  /** The session's usage as its record has it: the figures and the file they came from (docs/usage.md). */
  usage?: SessionUsage;
}

/** Why the session has its state: its runner's explanation (src/core/agents/status-explain.ts), in place of the preview. */
export function ExplainPane({ explain: o, session, rows, width, usage }: ExplainPaneProps) {
  const now = useNow(1000);
  const { actions } = useBoardControl();
  const limits = session && session.id === o.id ? session : undefined;
  const spent: [string, string][] = usage ? [['usage', usageLine(usage)], ['', `  from ${usage.file}, ${usage.skipped} line${usage.skipped === 1 ? '' : 's'} skipped`]] : [];
  // A sandboxed session's sandbox right after its state, decision and kind: the layers below may not fit.
  const lines = o.explanation ? explainLines(o.explanation, now, limits) : [];
  // Asked of the client once a minute (it reads config.json and the records): the refused hosts' ages move slower than that.
  const minute = Math.floor(now / 60_000);
  const sandbox = useMemo(() => (limits?.sandbox ? actions.sandboxLines(limits, minute * 60_000) : []), [actions, limits, minute]);
  const body = o.error ? null : o.explanation ? [...lines.slice(0, 3), ...sandbox, ...lines.slice(3), ...spent] : null;
  return (
    <Box flexDirection="column" width={width} height={rows + 1}>
      <PaneTitle text={`why ${o.name} is ${limits?.limited ? 'limited' : (o.explanation?.activity ?? '…')}`} width={width} />
      {o.error ? (
        <Text color="red" wrap="truncate-end">{`cannot explain ${o.name}: ${o.error}`}</Text>
      ) : body ? (
        body.slice(0, rows).map(([label, text], i) => (
          <Text key={i} wrap="truncate-end">
            <Text color="cyan">{fit(label, LABEL)}</Text>
            {cut(text, Math.max(0, width - LABEL))}
          </Text>
        ))
      ) : (
        <Text dimColor>{`asking ${o.name}'s runner…`}</Text>
      )}
    </Box>
  );
}
