/**
 * What a client of the runner said of itself and asked for: who it is (hello), its size, status
 * pushes and its own terminal's size (a watcher's view), when it last typed or resized, and
 * whether it asked to leave. ClientConn (client-conn.ts) is a ClientProfile with a socket and a
 * place in the terminal stream; these are only ever set by the client's own messages
 * (message-table.ts).
 */
import { clampSize, type TermSize } from '../../core/protocol/size.js';

export class ClientProfile {
  private hello: { readOnly: boolean; name: string } | null = null;
  private wanted: TermSize | null = null;
  private statusPushes = false;
  private viewSize: TermSize | null = null;
  private activeAt = 0;
  private saidDetach = false;

  get greeted(): boolean {
    return this.hello !== null;
  }

  get readOnly(): boolean {
    return this.hello?.readOnly ?? false;
  }

  get name(): string {
    return this.hello?.name ?? '';
  }

  /** The size this client last asked for (interactive clients only). */
  get size(): TermSize | null {
    return this.wanted;
  }

  /** Wants a `status` push on every host record change (the board does). */
  get watchesStatus(): boolean {
    return this.statusPushes;
  }

  /** The client asked to leave (`detach`), rather than its connection dropping (it may reconnect). */
  get detached(): boolean {
    return this.saidDetach;
  }

  /** It asked to leave. */
  detach(): void {
    this.saidDetach = true;
  }

  /** When the client last typed or resized (ms since the epoch), for the latest-active resize policy. */
  get lastActive(): number {
    return this.activeAt;
  }

  /** hello: who the client is. A second hello says it again (the last one counts). */
  greet(hello: { readOnly: boolean; name: string }): void {
    this.hello = { ...hello };
  }

  /** Status pushes from now on; `view` (when given) is this watcher's own terminal size, the last one kept. */
  watchStatus(view?: TermSize): void {
    this.statusPushes = true;
    if (view) this.viewSize = clampSize(view.cols, view.rows);
  }

  /** The watcher's own terminal size, offered for when no attach holds the size (src/runner/clients/size-policy.ts); null: none. */
  get view(): TermSize | null {
    return this.viewSize;
  }

  /** The client typed or resized at `at`. */
  touch(at: number): void {
    this.activeAt = at;
  }

  /** The client's own size, asked for at `at`. */
  want(size: TermSize, at: number): void {
    this.wanted = size;
    this.activeAt = at;
  }
}
