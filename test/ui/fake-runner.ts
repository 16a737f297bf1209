/** A runner connection that answers an attach with a snapshot, for the real attach client. */
import type { RunnerConnection } from '../../src/client/connection.js';
import type { ClientMessage, RunnerMessage } from '../../src/core/protocol.js';

export class FakeRunner {
  sent: ClientMessage[] = [];
  closed = false;
  private listeners = new Set<(m: RunnerMessage) => void>();
  readonly hello = { type: 'hello', protocol: 1, generation: 'gen-1', host: { agent: 'shell', id: 'fake1' } };
  readonly socket = { pause() {}, resume() {} };

  constructor(private readonly screen: string) {}

  onMessage(fn: (m: RunnerMessage) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
  onClose(): () => void {
    return () => undefined;
  }
  send(m: ClientMessage): void {
    this.sent.push(m);
    if (m.type === 'reconcile') {
      const commandId = (m as { commandId?: string }).commandId;
      queueMicrotask(() =>
        this.emit({ type: 'reconcile_result', commandId, generation: 'gen-1', hostRevision: 1, terminalCursor: { lastSeq: -1 }, unresolved: [], commands: [] }),
      );
    }
    if (m.type === 'subscribe_terminal') {
      queueMicrotask(() => {
        this.emit({ type: 'snapshot_begin', seq: 0, cols: 80, rows: 24, generation: 'gen-1', historyLines: 0 });
        this.emit({ type: 'snapshot_screen', data: this.screen });
        this.emit({ type: 'snapshot_end', nextSeq: 0 });
      });
    }
  }
  emit(m: RunnerMessage): void {
    for (const fn of this.listeners) fn(m);
  }
  close(): void {
    this.closed = true;
  }
  destroy(): void {
    this.closed = true;
  }
  /** What the user typed into the session. */
  typed(): string {
    return this.sent.flatMap((m) => (m.type === 'input' ? [m.data] : [])).join('');
  }
  asConnection(): RunnerConnection {
    return this as unknown as RunnerConnection;
  }
}
