/**
 * A session full screen in xterm.js: the runner's exact frame first (resize to its size, reset,
 * write), then its live output. Scaled to the page's width; typing is locked on a touch device
 * until the user unlocks it (a tap on a phone must not type into an agent), never unlocked on a
 * read-only device.
 */
import type { FitAddon } from '@xterm/addon-fit';
import type { Terminal } from '@xterm/xterm';
import { useEffect, useRef, useState } from 'preact/hooks';
import { usePage } from '../page-context.js';
import { LockIcon, UnlockIcon } from './icons.js';
import { KeyBar, type BarKey } from './KeyBar.js';
import { FIT_FONT_PX, scaleToWidth } from './terminal-fit.js';
import { loadXterm, type XtermLib } from './xterm-lib.js';

/** Lines kept above the screen (the session's own scrollback stays in the runner). */
const SCROLLBACK = 2000;

interface Props {
  id: string;
  readOnly: boolean;
}

export function TerminalView({ id, readOnly }: Props) {
  const { model, touch } = usePage();
  const host = useRef<HTMLDivElement>(null);
  const termRef = useRef<{ term: Terminal; fit: FitAddon } | null>(null);
  // Locked on a touch device only: a read-only device never types whatever the lock says (and its
  // welcome may come after this view is up).
  const [locked, setLocked] = useState(touch);
  const typing = !locked && !readOnly;
  const typingRef = useRef(typing);
  typingRef.current = typing;

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    let gone = false;
    let release: (() => void) | null = null;
    const mount = ({ Terminal, FitAddon }: XtermLib) => {
      if (gone) return;
      const term = new Terminal({
        fontSize: 13,
        fontFamily: 'ui-monospace, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace',
        scrollback: SCROLLBACK,
        cursorBlink: false,
        theme: { background: '#0d1014' },
      });
      const fit = new FitAddon();
      term.loadAddon(fit);
      term.open(el);
      termRef.current = { term, fit };
      // The bench (bench/web.mjs) times paint by xterm's render event, as it does wetty's window.wetty_term.
      (window as { __agentBoardTerm?: Terminal }).__agentBoardTerm = term;
      const scale = () => scaleToWidth(term, el.clientWidth - 4);
      const onTerm = model.attachTerminal((m) => {
        switch (m.t) {
          case 'frame':
            term.resize(m.cols, m.rows);
            term.reset();
            term.write(m.data);
            scale();
            return;
          case 'out':
            term.write(m.data);
            return;
          case 'size':
            term.resize(m.cols, m.rows);
            scale();
            return;
        }
      });
      const onData = term.onData((d) => {
        if (typingRef.current) model.keys(id, d);
      });
      const ro = new ResizeObserver(scale);
      ro.observe(el);
      // Typing as it is now: the effect below ran before the terminal was there.
      term.options.disableStdin = !typingRef.current;
      if (term.textarea) term.textarea.readOnly = !typingRef.current;
      if (typingRef.current) term.focus();
      release = () => {
        ro.disconnect();
        onData.dispose();
        onTerm.dispose();
        termRef.current = null;
        term.dispose();
      };
    };
    loadXterm().then(mount, (err: unknown) => {
      if (!gone) el.textContent = `the terminal could not load (${err instanceof Error ? err.message : String(err)}): reload the page`;
    });
    return () => {
      gone = true;
      release?.();
    };
  }, [id, model]);

  useEffect(() => {
    const t = termRef.current?.term;
    if (!t) return;
    t.options.disableStdin = !typing;
    // A read-only textarea keeps the phone's keyboard down while typing is locked.
    if (t.textarea) t.textarea.readOnly = !typing;
    // Unlocking is a tap: the phone's keyboard may come up for it (that is what the user asked for).
    if (typing) t.focus();
  }, [typing]);

  const fitSession = () => {
    const r = termRef.current;
    if (!r) return;
    r.term.options.fontSize = touch ? FIT_FONT_PX.touch : FIT_FONT_PX.desk;
    const dims = r.fit.proposeDimensions();
    if (dims && dims.cols >= 2 && dims.rows >= 2) model.resize(id, dims.cols, dims.rows);
  };

  const sendKey = (k: BarKey) => {
    const t = termRef.current?.term;
    if (t && typing) model.keys(id, k.data(t.modes.applicationCursorKeysMode));
  };

  return (
    <div class="terminal-view">
      <div class="term-tools">
        <button type="button" onClick={fitSession} title="resize the session to this screen">
          fit
        </button>
        <button type="button" class={typing ? 'unlocked' : 'locked'} disabled={readOnly} aria-pressed={typing} onClick={() => setLocked(!locked)} title={readOnly ? 'this device is read-only' : typing ? 'lock typing' : 'unlock typing'}>
          {typing ? <UnlockIcon /> : <LockIcon />} {readOnly ? 'read-only' : typing ? 'typing' : 'locked'}
        </button>
      </div>
      {/* A tap anywhere in the pane types into the terminal (it may be drawn smaller than the pane). */}
      <div class="term-host" ref={host} onClick={() => typingRef.current && termRef.current?.term.focus()} />
      {typing && touch ? <KeyBar onKey={sendKey} /> : null}
    </div>
  );
}
