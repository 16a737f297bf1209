/**
 * The page: the list and the open view side by side on a wide screen, one at a time on a phone
 * (style.css); the pairing form when this browser is not paired; banners for a lost connection,
 * unreachable hosts and the last thing the server said.
 */
import { useState } from 'preact/hooks';
import { usePage, usePageState } from '../page-context.js';
import { ChatView } from './ChatView.js';
import { DiffView } from './DiffView.js';
import { PairForm, type PairProps } from './PairForm.js';
import { PromptBox } from './PromptBox.js';
import { SessionList } from './SessionList.js';
import { SessionView } from './SessionView.js';
import { Settings } from './Settings.js';

function Detail() {
  const s = usePageState();
  const r = s.route;
  switch (r.view) {
    case 'session':
      return <SessionView key={r.id} id={r.id} />;
    case 'diff':
      return <DiffView key={r.id} id={r.id} />;
    case 'chat':
      return <ChatView key={r.room} room={r.room} />;
    case 'list':
      return <p class="empty pick">Pick a session.</p>;
  }
}

export function App({ pairCode, pair }: { pairCode: string | null; pair: PairProps['pair'] }) {
  const { model, nav } = usePage();
  const s = usePageState();
  const [settings, setSettings] = useState(false);
  if (s.link === 'unpaired' || pairCode !== null) return <PairForm code={pairCode ?? ''} pair={pair} />;
  const waiting = s.rows.filter((r) => r.state === 'waiting' && !r.stale).length;
  const room = s.rows[0]?.room ?? 'default';
  return (
    <div class={`app view-${s.route.view}`}>
      <header class="top">
        <span class="brand">agent-board</span>
        <span class={`link-dot ${s.link}`} title={s.link} />
        {waiting > 0 ? <span class="waiting-count">◆ {waiting} waiting</span> : null}
        <span class="spacer" />
        <button type="button" onClick={() => nav({ view: 'chat', room })}>
          chat
        </button>
        <button type="button" aria-pressed={settings} onClick={() => setSettings(!settings)} title="notifications and settings">
          ⚙
        </button>
      </header>
      {s.link === 'reconnecting' || (s.link === 'connecting' && s.welcome) ? <div class="banner reconnecting">Reconnecting…</div> : null}
      {s.notice ? (
        <div class={`banner notice${s.notice.error ? ' err' : ''}`} onClick={() => model.dismissNotice()}>
          {s.notice.line}
        </div>
      ) : null}
      {settings ? <Settings onClose={() => setSettings(false)} /> : null}
      <div class="panes">
        <aside class="list-pane">
          <SessionList />
          <PromptBox />
        </aside>
        <main class="detail-pane">
          <Detail />
        </main>
      </div>
    </div>
  );
}
