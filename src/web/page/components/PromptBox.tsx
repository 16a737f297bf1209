/** The prompt box: a prompt to the marked rows (or the open session), sent exactly once, and each target's result. */
import { useState } from 'preact/hooks';
import { promptTargets, type PageState, type SendRecord } from '../page-state.js';
import { usePage, usePageState } from '../page-context.js';

const nameOf = (s: PageState, id: string): string => s.rows.find((r) => r.id === id)?.name ?? id;

function SendResults({ rec, s }: { rec: SendRecord; s: PageState }) {
  const { model } = usePage();
  return (
    <li class="send">
      <div class="send-text">{rec.kind === 'comment' ? `comments: ${rec.text.split('\n').length}` : rec.text.slice(0, 120)}</div>
      {rec.error ? <div class="result err">{rec.error}</div> : null}
      {rec.done ? <div class="result ok">{rec.done}</div> : null}
      {rec.kind === 'send'
        ? rec.targets.map((id) => {
            const r = rec.results[id];
            const status = r?.status ?? (model.isPending(rec.cmd) ? 'sending' : '');
            return (
              <div key={id} class={`result st-${status}`}>
                <span class="target">{nameOf(s, id)}</span> <span class="status">{status}</span> {r?.line ?? ''}
              </div>
            );
          })
        : null}
    </li>
  );
}

export function PromptBox() {
  const { model } = usePage();
  const s = usePageState();
  const [text, setText] = useState('');
  const targets = promptTargets(s);
  const readOnly = s.welcome?.readOnly ?? true;
  const submit = (e: Event) => {
    e.preventDefault();
    if (model.sendPrompt(text) !== null) setText('');
  };
  const label = s.marked.length > 0 ? `to ${s.marked.length} marked: ${s.marked.map((id) => nameOf(s, id)).join(', ')}` : targets.length > 0 ? `to ${nameOf(s, targets[0]!)}` : 'mark sessions (☐) or open one to send a prompt';
  return (
    <section class="prompt" aria-label="prompt">
      <form onSubmit={submit}>
        <div class="prompt-to">
          {label}
          {s.marked.length > 0 ? (
            <button type="button" class="link" onClick={() => model.clearMarks()}>
              clear
            </button>
          ) : null}
        </div>
        <div class="prompt-row">
          <textarea
            rows={2}
            placeholder={readOnly ? 'this device is read-only' : 'a prompt…'}
            value={text}
            disabled={readOnly}
            onInput={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              // Ctrl/Cmd-Enter sends; Enter alone is a new line (a prompt may have several).
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit(e);
            }}
          />
          <button type="submit" class="primary" disabled={readOnly || targets.length === 0 || text.trim() === ''}>
            Send
          </button>
        </div>
      </form>
      {s.sends.length > 0 ? (
        <ul class="sends">
          {s.sends.map((r) => (
            <SendResults key={r.cmd} rec={r} s={s} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
