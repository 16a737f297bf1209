/** The runner's message table, dispatch and control layer over a session that only records what its handlers were asked (test/unit/message-*.test.ts). */
import type { Envelope } from '../../src/core/protocol/control-protocol.js';
import { PROTOCOL_VERSION } from '../../src/core/protocol/protocol.js';
import type { ClientMessage } from '../../src/core/protocol/client-messages.js';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import type { StatusExplanation } from '../../src/core/agents/status-explain.js';
import { ClientConn } from '../../src/runner/clients/client-conn.js';
import { Control } from '../../src/runner/control/control.js';
import { dispatch, typeKeys, type DispatchDeps } from '../../src/runner/control/dispatch.js';
import type { SessionOps } from '../../src/runner/control/message-table.js';
import { FakeSocket } from './fake-socket.js';
import { FakeTime } from './fake-time.js';

export function messageRig() {
  const time = new FakeTime();
  let exit: { code: number | null; signal: string | null } | null = null;
  const calls: string[] = [];
  const record = { id: 'sess', name: 's', revision: 1, cols: 80, rows: 24 } as HostRecord;
  const control = new Control({
    session: {
      id: 'sess',
      generation: 'gen',
      get exit() {
        return exit;
      },
      revision: 1,
      lastSeq: -1,
      resizeFor: (_c, cols, rows) => ({ cols, rows }),
    },
    prompts: { status: () => undefined, unresolved: () => [], sessionEnded: () => undefined },
    log: () => undefined,
    scheduler: time,
  });
  const ops: SessionOps = {
    generation: 'gen',
    record,
    explain: () => ({}) as StatusExplanation,
    rename: (name) => {
      calls.push(`rename ${name}`);
      return null;
    },
    setResumeAfterLimit: (set) => {
      calls.push(`resume_after_limit ${JSON.stringify(set)}`);
      return null;
    },
    hook: () => void calls.push('hook'),
    subscribeTerminal: () => void calls.push('subscribe_terminal'),
    leaving: (_c, then) => then(),
    watchStatus: () => void calls.push('subscribe_status'),
    reconcile: (c, id) => control.reconcile(c, id, []),
    type: (_c, keys) => void calls.push(typeof keys === 'string' ? `type ${keys}` : `bytes ${Buffer.from(keys).toString('latin1')}`),
    typedByRelay: (c) => void calls.push(`relayed ${c.id}`),
    acceptPrompt: (acks, msg) => {
      calls.push(`prompt ${msg.data}`);
      acks.applied();
    },
    interrupt: () => void calls.push('interrupt'),
    redraw: () => void calls.push('redraw'),
    terminate: () => void calls.push('terminate'),
    resizeNow: (_c, cols, rows) => void calls.push(`resize ${cols}x${rows}`),
    offerResize: (c, acks, cols, rows) => control.offerResize(c, acks, cols, rows),
  };
  const deps: DispatchDeps = { ops, control, exited: () => exit !== null, now: () => time.now() };
  let seq = 0;
  const client = (hello?: { readOnly?: boolean }) => {
    const socket = new FakeSocket();
    const c = new ClientConn(socket.asSocket, () => undefined);
    const send = (msg: ClientMessage, enveloped = false) => {
      const env: Envelope | undefined = enveloped ? { commandId: `cmd-${++seq}`, clientId: 'cl', seq, viewId: 'sess', instanceId: 'gen' } : undefined;
      dispatch(deps, c, msg, env);
      return env?.commandId;
    };
    if (hello) send({ type: 'hello', protocol: PROTOCOL_VERSION, readOnly: hello.readOnly ?? false });
    socket.sent.length = 0;
    const keys = (text: string) => typeKeys(deps, c, Buffer.from(text, 'latin1'));
    return { c, socket, send, keys };
  };
  return { calls, client, time, control, deps, exitNow: () => (exit = { code: 0, signal: null }) };
}
