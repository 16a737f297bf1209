/** The board's terminal lent to a full-screen attach, and the line the board shows when it comes back. */
import { runAttach, type AttachOptions } from '../attach/attach.js';
import { attachEndMessage } from '../attach/attach-session.js';
import type { Message } from '../../core/board/board-types.js';
import type { SessionView } from '../../state/host-store.js';

export interface BoardAttachOptions extends AttachOptions {
  input: AttachOptions['input'] & {
    setRawMode(raw: boolean): unknown;
    unshift(chunk: string, encoding: 'utf8'): unknown;
    read(): unknown;
  };
  /** Keys typed after the Enter that attached, in the same read. */
  typeahead: string;
}

/**
 * The board's terminal, lent to a full-screen attach: the same client as
 * `agent-board attach`. It resolves with the line the board shows when it
 * comes back; it never throws (a session that cannot be reached is a message).
 */
export async function attachFromBoard(s: SessionView, o: BoardAttachOptions): Promise<Message> {
  const { input, typeahead } = o;
  // Raw from here on: keys typed while the attach starts, or while the board
  // comes back, must not echo. runAttach leaves the mode as it found it.
  input.setRawMode(true);
  let first = true;
  const connect = async () => {
    const conn = await o.connect();
    // Once connected, and only then: ahead of whatever was typed while connecting.
    if (first && typeahead) input.unshift(typeahead, 'utf8');
    first = false;
    return conn;
  };
  try {
    const r = await runAttach({ ...o, connect });
    return { text: attachEndMessage(s.name, r), error: r.reason === 'lost' };
  } catch (err) {
    // Keys typed for a session that never came are not the board's (an x and a y would kill).
    while (input.read() !== null);
    return { text: err instanceof Error ? err.message : String(err), error: true };
  }
}
