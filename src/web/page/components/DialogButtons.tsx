/** A waiting session's question and its options as buttons: a tap answers (what 1-9 do on the board). */
import type { WebRow } from '../../../core/web/web-protocol.js';
import { usePage } from '../page-context.js';

export function DialogButtons({ row, readOnly }: { row: WebRow; readOnly: boolean }) {
  const { model } = usePage();
  const dialog = row.state === 'waiting' && !row.stale ? row.dialog : null;
  if (!dialog || dialog.options.length === 0) return null;
  return (
    <div class="dialog">
      {dialog.question ? <div class="question">{dialog.question}</div> : null}
      <div class="options">
        {dialog.options.map((o) => (
          <button type="button" key={o.number} class={o.selected ? 'opt selected' : 'opt'} disabled={readOnly} onClick={() => model.answer(row.id, o.number)}>
            <b>{o.number}</b> {o.label}
          </button>
        ))}
      </div>
    </div>
  );
}
