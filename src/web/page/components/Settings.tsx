/** Notifications on this device (Web Push, subscribed with the server's VAPID key) and quiet mode (no push at all). */
import { useEffect, useState } from 'preact/hooks';
import { usePage, usePageState } from '../page-context.js';
import { disablePush, enablePush, hasPush } from '../push.js';
import { BellIcon } from './icons.js';

export function Settings({ onClose }: { onClose: () => void }) {
  const { model } = usePage();
  const s = usePageState();
  const [push, setPush] = useState(false);
  const [busy, setBusy] = useState(false);
  const [line, setLine] = useState<string | null>(null);
  useEffect(() => {
    hasPush().then(setPush, (e: unknown) => setLine(String(e)));
  }, []);
  const vapid = s.welcome?.vapidKey ?? null;
  const toggle = async () => {
    setBusy(true);
    setLine(null);
    if (push) {
      await disablePush().then(
        () => setPush(false),
        (e: unknown) => setLine(String(e)),
      );
    } else if (vapid) {
      const r = await enablePush(vapid);
      if (!r.ok) setLine(r.line);
      else if (!model.subscribe(r.sub)) setLine('not connected: try again when the page is back');
      else setPush(true);
    }
    setBusy(false);
  };
  return (
    <div class="settings" role="dialog" aria-label="settings">
      <label class="switch">
        <input type="checkbox" checked={push} disabled={busy || (!vapid && !push)} onChange={() => void toggle()} />
        Notifications on this device
      </label>
      {!vapid ? <p class="hint">The server has no push keys.</p> : null}
      <label class="switch">
        <input type="checkbox" checked={s.welcome?.quiet ?? false} disabled={!s.welcome} onChange={(e) => model.quiet(e.currentTarget.checked)} />
        Quiet mode (no notifications at all)
      </label>
      <p class="hint">
        <BellIcon /> on a row mutes that session's notifications.
      </p>
      {line ? <p class="err">{line}</p> : null}
      {s.welcome ? (
        <p class="hint">
          {s.welcome.name}
          {s.welcome.readOnly ? ' · read-only' : ''} · agent-board {s.welcome.version}
        </p>
      ) : null}
      <button type="button" onClick={onClose}>
        close
      </button>
    </div>
  );
}
