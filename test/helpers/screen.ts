import { EventEmitter } from 'node:events';
import type { AttachInput, AttachOutput } from '../../src/client/attach/attach.js';
import { SerializeAddon } from '../../src/client/screen/serialize-addon.js';
import { Terminal } from '../../src/state/headless-terminal.js';

/** A terminal for the attach client: keys typed in, everything it draws kept. */
export class FakeTerminal {
  readonly keys = Object.assign(new EventEmitter(), {
    isRaw: false,
    setRawMode(raw: boolean) {
      this.isRaw = raw;
    },
    resume() {},
    pause() {},
  }) as unknown as AttachInput & EventEmitter & { isRaw: boolean };
  readonly screen: AttachOutput & EventEmitter & { drawn: string; columns: number; rows: number };

  constructor(columns = 100, rows = 30) {
    this.screen = Object.assign(new EventEmitter(), {
      columns,
      rows,
      drawn: '',
      write(data: string) {
        this.drawn += data;
        return true;
      },
    }) as unknown as AttachOutput & EventEmitter & { drawn: string; columns: number; rows: number };
  }

  type(data: string): void {
    this.keys.emit('data', data);
  }
}

export interface Screen {
  /** The visible screen with colours and attributes, as the serializer writes it. */
  cells: string;
  /** Plain text of each visible line. */
  lines: string[];
  cursor: [number, number];
}

/** Plays bytes into a headless terminal of this size and reads back the visible screen. */
export async function screenOf(data: string, cols: number, rows: number): Promise<Screen> {
  const term = new Terminal({ cols, rows, scrollback: 1000, allowProposedApi: true });
  const ser = new SerializeAddon();
  term.loadAddon(ser as never);
  await new Promise<void>((r) => term.write(data, r));
  const buf = term.buffer.active;
  const lines = Array.from({ length: rows }, (_, y) => buf.getLine(buf.viewportY + y)?.translateToString(true) ?? '');
  const screen: Screen = { cells: ser.serialize({ scrollback: 0, excludeModes: true } as never), lines, cursor: [buf.cursorX, buf.cursorY] };
  term.dispose();
  return screen;
}
