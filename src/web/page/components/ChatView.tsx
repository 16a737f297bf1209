/** A room's chat: its records as they come, and a post box. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { usePage, usePageState } from '../page-context.js';

export function ChatView({ room }: { room: string }) {
  const { model, nav } = usePage();
  const s = usePageState();
  const [text, setText] = useState('');
  const end = useRef<HTMLDivElement>(null);
  const chat = s.chat?.room === room ? s.chat : null;
  const count = chat?.records.length ?? 0;
  useEffect(() => end.current?.scrollIntoView({ block: 'end' }), [count]);
  const readOnly = s.welcome?.readOnly ?? true;
  return (
    <div class="chat-view">
      <header class="view-head">
        <button type="button" class="back" onClick={() => nav({ view: 'list' })} title="back to the list">
          ‹
        </button>
        <span class="title">chat · {room}</span>
        {chat?.paused ? <span class="badge">wakes paused</span> : null}
      </header>
      <div class="chat-body">
        {!chat ? <p class="empty">Loading the room…</p> : count === 0 ? <p class="empty">Nothing said in this room yet.</p> : null}
        {chat?.records.map((r) => (
          <div key={r.id} class={`msg ${r.kind}`}>
            <span class="from">{r.from}</span> <span class="ts">{r.ts.slice(11, 16)}</span>
            <div class="text">{r.text}</div>
          </div>
        ))}
        <div ref={end} />
      </div>
      <form
        class="chat-post"
        onSubmit={(e) => {
          e.preventDefault();
          if (model.post(room, text)) setText('');
        }}
      >
        <textarea rows={1} placeholder={readOnly ? 'this device is read-only' : `message #${room}`} disabled={readOnly} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        <button type="submit" class="primary" disabled={readOnly || !text.trim()}>
          Post
        </button>
      </form>
    </div>
  );
}
