/** The keys a phone's keyboard lacks, as buttons: each sends its bytes as `keys`. */

export interface BarKey {
  label: string;
  title: string;
  /** The bytes, given whether the program asked for application cursor keys (DECCKM). */
  data: (appCursor: boolean) => string;
}

const arrow = (c: string) => (app: boolean) => (app ? `\x1bO${c}` : `\x1b[${c}`);

export const BAR_KEYS: readonly BarKey[] = [
  { label: 'Esc', title: 'Escape', data: () => '\x1b' },
  { label: 'Tab', title: 'Tab', data: () => '\t' },
  { label: '^C', title: 'Ctrl-C', data: () => '\x03' },
  { label: '^D', title: 'Ctrl-D', data: () => '\x04' },
  { label: '←', title: 'Left', data: arrow('D') },
  { label: '↓', title: 'Down', data: arrow('B') },
  { label: '↑', title: 'Up', data: arrow('A') },
  { label: '→', title: 'Right', data: arrow('C') },
  { label: '⏎', title: 'Enter', data: () => '\r' },
];

export function KeyBar({ onKey }: { onKey: (k: BarKey) => void }) {
  return (
    <div class="keybar" role="toolbar" aria-label="keys">
      {BAR_KEYS.map((k) => (
        <button
          type="button"
          key={k.title}
          title={k.title}
          // Keeps the focus (and the phone's keyboard) where it is.
          onPointerDown={(e) => e.preventDefault()}
          onClick={() => onKey(k)}
        >
          {k.label}
        </button>
      ))}
    </div>
  );
}
