/**
 * A runner connection for the real client code: it answers an attach with a
 * snapshot, a durable prompt with its acks (accepted, then applied), and
 * `explain` with `explanation` (null: silent, as a runner from before explain).
 */
import type { RunnerConnection } from '../../src/client/link/connection.js';
import type { ClientMessage } from '../../src/core/protocol/client-messages.js';
import type { RunnerMessage } from '../../src/core/protocol/runner-messages.js';
import type { StatusExplanation } from '../../src/core/agents/status-explain.js';
import { NONE, toDisposable, type Disposable } from '../../src/core/lifetime.js';
import { realScheduler } from '../../src/state/real-time.js';

/** What a Claude session under its API-key dialog would say, asked at `now`: waiting for 5 s, idle title for 9 s. */
export const explanationAt = (now: number): StatusExplanation => ({
  kind: 'claude',
  effectiveKind: 'claude',
  activity: 'waiting',
  source: 'screen',
  since: now - 5000,
  decidedBy: 'a dialog on screen beats an idle title',
  layers: [
    { source: 'hook', used: true, activity: null, at: null },
    { source: 'title', used: true, activity: 'idle', at: now - 9000, rule: { name: 'claude.title.ready', file: 'src/core/agents/status-detectors.ts' }, evidence: '✳ Claude Code' },
    { source: 'screen', used: true, activity: 'waiting', at: now - 5000, rule: { name: 'claude.screen.apiKeyDialog', file: 'src/core/agents/status-detectors.ts' }, evidence: 'Do you want to use this API key?' },
    { source: 'bytes', used: false, activity: null, at: null },
  ],
  hooks: { wired: true, note: 'hooks come through --settings', lastEvent: 'SessionStart', lastAt: now - 10_000, silent: false },
  ruleFiles: ['src/core/agents/status-detectors.ts', '/home/me/.config/agent-board/rules.json'],
  ruleErrors: ['rules.json: claude.screen.mine: the pattern does not compile'],
});

export class FakeRunner {
  sent: ClientMessage[] = [];
  closed = false;
  /** The answer to `explain`, made when asked; null: none (the request times out). */
  explanation: ((now: number) => StatusExplanation) | null = explanationAt;
  /** Set: a spent budget holds prompts, as a runner does (rejected `over_budget` with this line, unless sent overBudget). */
  heldBy: string | null = null;
  /** Durable prompts by command id, and the acks they got. */
  private readonly prompts = new Map<string, 'applied'>();
  private listeners = new Set<(m: RunnerMessage) => void>();
  readonly hello = { type: 'hello', protocol: 1, generation: 'gen-1', host: { agent: 'shell', id: 'fake1' } };
  readonly socket = { pause() {}, resume() {} };
  /** The timers of whatever waits on this connection (a control channel's acks). */
  readonly scheduler = realScheduler();

  constructor(private readonly screen: string) {}

  onMessage(fn: (m: RunnerMessage) => void): Disposable {
    this.listeners.add(fn);
    return toDisposable(() => this.listeners.delete(fn));
  }
  onClose(): Disposable {
    return NONE;
  }
  send(m: ClientMessage): void {
    this.sent.push(m);
    const commandId = (m as { commandId?: string }).commandId;
    if (m.type === 'reconcile') {
      const ids = (m as { commandIds?: string[] }).commandIds ?? [];
      const commands = ids.map((id) => ({ commandId: id, status: this.prompts.get(id) ?? 'unknown' }));
      queueMicrotask(() =>
        this.emit({ type: 'reconcile_result', commandId, generation: 'gen-1', hostRevision: 1, terminalCursor: { lastSeq: -1 }, unresolved: [], commands } as never),
      );
    }
    if (m.type === 'input' && m.durable && commandId && this.heldBy !== null && !m.overBudget) {
      const message = this.heldBy;
      queueMicrotask(() => this.emit({ type: 'cmd_ack', commandId, stage: 'rejected', code: 'over_budget', message }));
    } else if (m.type === 'input' && m.durable && commandId && !this.prompts.has(commandId)) {
      this.prompts.set(commandId, 'applied');
      queueMicrotask(() => {
        this.emit({ type: 'cmd_ack', commandId, stage: 'accepted' });
        this.emit({ type: 'cmd_ack', commandId, stage: 'applied' });
      });
    }
    if (m.type === 'explain' && this.explanation) {
      const explanation = this.explanation(Date.now());
      queueMicrotask(() => this.emit({ type: 'explain', explanation }));
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
  dispose(): void {
    this.closed = true;
  }
  /** What the user typed into the session (keys, not prompts). */
  typed(): string {
    return this.sent.flatMap((m) => (m.type === 'input' && !m.durable ? [m.data] : [])).join('');
  }
  /** The prompts sent to it, each as often as it was sent. */
  promptsSent(): string[] {
    return this.sent.flatMap((m) => (m.type === 'input' && m.durable ? [m.data] : []));
  }
  /** A connection to it: a new one is open, whatever became of the one before (a second prompt's). */
  asConnection(): RunnerConnection {
    this.closed = false;
    return this as unknown as RunnerConnection;
  }
}
