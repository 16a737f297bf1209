/** One session in the list: its state, name, kind, host, last line, time since output, worktree; a waiting one's question and options as buttons. */
import { ago } from '../../../core/board/ago.js';
import { limitedLabel } from '../../../core/usage/limit-state.js';
import { SANDBOX_MARK } from '../../../core/sandbox/sandbox-text.js';
import type { WebRow } from '../../../core/web/web-protocol.js';
import { usePage } from '../page-context.js';
import { STALE_GLYPH, STATE_GLYPH } from '../state-style.js';
import { DialogButtons } from './DialogButtons.js';
import { BellIcon, BellOffIcon } from './icons.js';

interface Props {
  row: WebRow;
  marked: boolean;
  open: boolean;
  /** Now on the server's clock. */
  now: number;
  readOnly: boolean;
}

export function SessionRow({ row, marked, open, now, readOnly }: Props) {
  const { model, nav } = usePage();
  const state = row.stale ? 'stale' : row.state;
  const dialog = row.state === 'waiting' && !row.stale ? row.dialog : null;
  return (
    <li class={`row st-${state}${open ? ' open' : ''}${marked ? ' marked' : ''}`} data-id={row.id}>
      <div class="row-main">
        <label class="mark" title="mark for the prompt box">
          <input type="checkbox" checked={marked} onChange={() => model.toggleMark(row.id)} aria-label={`mark ${row.name}`} />
        </label>
        <button type="button" class="row-open" onClick={() => nav({ view: 'session', id: row.id })}>
          <span class="row-top">
            <span class={`glyph st-${state}`} title={row.stale ? 'its host cannot be reached' : row.state}>
              {row.stale ? STALE_GLYPH : STATE_GLYPH[row.state]}
            </span>
            <span class="name">{row.name}</span>
            {row.sandbox ? <span class="sandbox" title={`sandboxed: ${row.sandbox}`} aria-label={`sandboxed: ${row.sandbox}`}>{SANDBOX_MARK}</span> : null}
            <span class="kind">{row.kind}</span>
            {row.host ? <span class="host">@{row.host}</span> : null}
            {/* The board's words for it (exited 3, killed, disk full, no link): the glyph alone is a colour. */}
            <span class={`state st-${state}`}>{row.state === 'limited' && !row.stale ? limitedLabel({ resetAt: row.resetAt ?? null }, now) : (row.stateText ?? row.state)}</span>
            <span class="ago" title="time since its last output">{ago(row.lastOutputAt, now)}</span>
          </span>
          {row.worktree ? <span class="worktree">{row.worktree}</span> : null}
          {/* A waiting row's last line is its question, said below with its options. */}
          {dialog && dialog.options.length > 0 ? null : <span class="last">{row.lastLine || ' '}</span>}
        </button>
        <button type="button" class={`mute${row.muted ? ' on' : ''}`} title={row.muted ? 'notifications muted: unmute' : 'mute its notifications'} aria-pressed={row.muted} onClick={() => model.mute(row.id, !row.muted)}>
          {row.muted ? <BellOffIcon /> : <BellIcon />}
        </button>
      </div>
      <DialogButtons row={row} readOnly={readOnly} />
    </li>
  );
}
