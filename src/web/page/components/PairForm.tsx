/** Pairing this browser: the one-time code `agent-board web pair` printed (filled from `#pair=CODE`) and a name for the device. */
import { useState } from 'preact/hooks';

/** A device name the user can recognise in `agent-board web devices`, guessed from the browser. */
function guessName(): string {
  const ua = navigator.userAgent;
  const os = /iPhone|iPad/.test(ua) ? 'iPhone' : /Android/.test(ua) ? 'Android' : /Mac/.test(ua) ? 'Mac' : /Windows/.test(ua) ? 'Windows' : /Linux/.test(ua) ? 'Linux' : 'browser';
  const browser = /Firefox\//.test(ua) ? 'Firefox' : /Edg\//.test(ua) ? 'Edge' : /Chrome\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : '';
  return browser ? `${browser} on ${os}` : os;
}

export interface PairProps {
  code: string;
  /** POSTs /api/pair; resolves to null when paired, else the line to show. */
  pair: (code: string, name: string) => Promise<string | null>;
}

export function PairForm({ code: initial, pair }: PairProps) {
  const [code, setCode] = useState(initial);
  const [name, setName] = useState(guessName);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div class="pair">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setBusy(true);
          setError(null);
          void pair(code.trim(), name.trim()).then((line) => {
            setBusy(false);
            setError(line);
          });
        }}
      >
        <h1>Pair this device</h1>
        <p>
          On the machine that runs your sessions, run <code>agent-board web pair</code> and type the code it prints (or scan its QR code).
        </p>
        <label>
          Code
          <input name="code" value={code} autoComplete="one-time-code" autoCapitalize="off" spellcheck={false} onInput={(e) => setCode(e.currentTarget.value)} required />
        </label>
        <label>
          Device name
          <input name="name" value={name} maxLength={60} onInput={(e) => setName(e.currentTarget.value)} required />
        </label>
        {error ? <p class="err">{error}</p> : null}
        <button type="submit" class="primary" disabled={busy || !code.trim() || !name.trim()}>
          {busy ? 'Pairing…' : 'Pair'}
        </button>
      </form>
    </div>
  );
}
