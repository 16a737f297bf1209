/** An open session: its name and state above, the terminal, its end when it ended, and the prompt box on demand. */
import { useState } from 'preact/hooks';
import { usePage, usePageState } from '../page-context.js';
import { STATE_GLYPH } from '../state-style.js';
import { DialogButtons } from './DialogButtons.js';
import { PromptBox } from './PromptBox.js';
import { TerminalView } from './TerminalView.js';

export function SessionView({ id }: { id: string }) {
  const { nav } = usePage();
  const s = usePageState();
  const [prompt, setPrompt] = useState(false);
  const row = s.rows.find((r) => r.id === id);
  const exit = s.exits[id];
  return (
    <div class="session-view">
      <header class="view-head">
        <button type="button" class="back" onClick={() => nav({ view: 'list' })} title="back to the list (Esc)">
          ‹
        </button>
        {row ? <span class={`glyph st-${row.stale ? 'stale' : row.state}`}>{STATE_GLYPH[row.state]}</span> : null}
        <span class="title">{row?.name ?? id}</span>
        <span class="kind">{row?.kind ?? ''}</span>
        <span class="spacer" />
        {row?.worktree ? (
          <button type="button" onClick={() => nav({ view: 'diff', id })}>
            diff
          </button>
        ) : null}
        {row ? (
          <button type="button" onClick={() => nav({ view: 'chat', room: row.room })}>
            chat
          </button>
        ) : null}
        <button type="button" aria-pressed={prompt} onClick={() => setPrompt(!prompt)}>
          prompt
        </button>
      </header>
      {exit ? <div class="banner exit-line">{exit}</div> : null}
      <TerminalView id={id} readOnly={s.welcome?.readOnly ?? true} />
      {row ? <DialogButtons row={row} readOnly={s.welcome?.readOnly ?? true} /> : null}
      {prompt ? <PromptBox /> : null}
    </div>
  );
}
