/**
 * The message table's gate, row by row: what each client message needs (hello first, an
 * interactive client, a running program, an envelope only where the row takes one), checked once
 * in dispatch for both encodings, and the refusal each wrong state gets, word for word as
 * docs/protocol.md has it. Every row is sent in every state; a check taken out of the gate
 * fails here.
 */
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../src/core/protocol/protocol.js';
import type { ClientMessage, ClientMessageType } from '../../src/core/protocol/client-messages.js';
import type { RunnerMessage } from '../../src/core/protocol/runner-messages.js';
import { MESSAGES } from '../../src/runner/control/message-table.js';
import { messageRig } from '../helpers/message-rig.js';

/** One message of each type, as a client sends it. */
const SAMPLE: { [K in ClientMessageType]: Extract<ClientMessage, { type: K }> } = {
  hello: { type: 'hello', protocol: PROTOCOL_VERSION },
  status: { type: 'status' },
  explain: { type: 'explain' },
  subscribe_status: { type: 'subscribe_status' },
  subscribe_terminal: { type: 'subscribe_terminal' },
  hook: { type: 'hook', kind: 'shell', event: 'stop' },
  rename: { type: 'rename', name: 'renamed' },
  resume_after_limit: { type: 'resume_after_limit', set: { prompt: 'continue', perDay: 3 } },
  reconcile: { type: 'reconcile' },
  detach: { type: 'detach' },
  input: { type: 'input', data: 'k' },
  resize: { type: 'resize', cols: 90, rows: 30 },
  interrupt: { type: 'interrupt' },
  redraw: { type: 'redraw' },
  terminate: { type: 'terminate' },
};

const ROWS = Object.keys(MESSAGES) as ClientMessageType[];
const either = ROWS.filter((t) => MESSAGES[t].envelope === 'either');
const legacyOnly = ROWS.filter((t) => MESSAGES[t].envelope === 'legacy');

/** Whether the handler ran: the session was asked something, or the client got an answer that is not a refusal. */
function ran(calls: string[], sent: RunnerMessage[]): boolean {
  return calls.length > 0 || sent.some((m) => m.type !== 'error' && !(m.type === 'cmd_ack' && m.stage === 'rejected'));
}

describe("the message table's gate", () => {
  it('has a sample for every row, so every row is exercised below', () => {
    expect(Object.keys(SAMPLE).sort()).toEqual([...ROWS].sort());
  });

  it.each(ROWS)('%s: with hello said, from an interactive client of a running program, runs (legacy form)', (type) => {
    const r = messageRig();
    const { socket, send } = r.client({});
    send(SAMPLE[type]);
    expect(socket.sent.filter((m) => m.type === 'error')).toEqual([]);
    expect(ran(r.calls, socket.sent)).toBe(true);
  });

  it.each(either)('%s: the enveloped form runs the same row', (type) => {
    const r = messageRig();
    const { socket, send } = r.client({});
    send(SAMPLE[type], true);
    r.time.advance(0); // a resize applies after its burst
    expect(socket.sent.filter((m) => m.type === 'error' || (m.type === 'cmd_ack' && m.stage === 'rejected'))).toEqual([]);
    expect(ran(r.calls, socket.sent)).toBe(true);
  });

  it.each(ROWS)('%s: before hello', (type) => {
    const r = messageRig();
    const { socket, send } = r.client();
    send(SAMPLE[type]);
    if (!MESSAGES[type].gate.greeted) {
      expect(socket.sent.map((m) => m.type)).toEqual(['hello']);
      return;
    }
    expect(socket.sent).toEqual([{ type: 'error', code: 'not_hello', message: 'send hello first' }]);
    if (MESSAGES[type].envelope === 'either') {
      const id = send(SAMPLE[type], true);
      expect(socket.sent.at(-1)).toEqual({ type: 'error', code: 'not_hello', message: 'send hello first', commandId: id });
    }
    expect(r.calls).toEqual([]);
  });

  it.each(legacyOnly)('%s: takes no envelope', (type) => {
    const r = messageRig();
    const { socket, send } = r.client({});
    const id = send(SAMPLE[type], true);
    expect(socket.sent).toEqual([{ type: 'error', code: 'invalid_message', message: `${type} takes no envelope`, commandId: id }]);
    expect(r.calls).toEqual([]);
  });

  it.each(ROWS)('%s: from a read-only client', (type) => {
    const r = messageRig();
    const legacy = r.client({ readOnly: true });
    legacy.send(SAMPLE[type]);
    if (!MESSAGES[type].gate.interactive) {
      expect(legacy.socket.sent.filter((m) => m.type === 'error')).toEqual([]);
      expect(ran(r.calls, legacy.socket.sent)).toBe(true);
      return;
    }
    const line = `${type} refused: this client attached read-only`;
    expect(legacy.socket.sent).toEqual([{ type: 'error', code: 'read_only', message: line }]);
    // A row that takes no envelope (resume_after_limit) is refused in its one form.
    if (MESSAGES[type].envelope === 'legacy') return expect(r.calls).toEqual([]);
    const enveloped = r.client({ readOnly: true });
    const id = enveloped.send(SAMPLE[type], true);
    r.time.advance(0);
    // Keystrokes are fire-and-forget in both forms (an error frame); acknowledged commands get a rejected ack.
    expect(enveloped.socket.sent).toEqual([
      type === 'input' ? { type: 'error', code: 'read_only', message: line, commandId: id } : { type: 'cmd_ack', commandId: id, stage: 'rejected', code: 'read_only', message: line },
    ]);
    expect(r.calls).toEqual([]);
  });

  it.each(ROWS)('%s: after the program exited', (type) => {
    const r = messageRig();
    const legacy = r.client({});
    const enveloped = r.client({});
    r.exitNow();
    legacy.send(SAMPLE[type]);
    if (!MESSAGES[type].gate.alive) {
      expect(legacy.socket.sent.filter((m) => m.type === 'error')).toEqual([]);
      expect(ran(r.calls, legacy.socket.sent)).toBe(true);
      return;
    }
    const line = `${type} refused: the session has exited`;
    expect(legacy.socket.sent).toEqual([{ type: 'error', code: 'session_exited', message: line }]);
    const id = enveloped.send(SAMPLE[type], true);
    r.time.advance(0);
    const expected =
      type === 'input'
        ? { type: 'error', code: 'session_exited', message: line, commandId: id }
        : type === 'terminate'
          ? { type: 'cmd_ack', commandId: id, stage: 'observed', exitCode: 0, exitSignal: null } // what it asked for has happened
          : { type: 'cmd_ack', commandId: id, stage: 'rejected', code: 'session_exited', message: line };
    expect(enveloped.socket.sent).toEqual([expected]);
    expect(r.calls).toEqual([]);
  });

  it('keys read from the terminal pass the same gate as the input row, in every state', () => {
    const r = messageRig();
    expect(r.client().keys('a')).toBe(false);
    expect(r.client({ readOnly: true }).keys('b')).toBe(false);
    const rw = r.client({});
    expect(rw.keys('c')).toBe(true);
    r.exitNow();
    expect(rw.keys('d')).toBe(false);
    expect(r.calls).toEqual(['bytes c']);
  });

  it("the control layer answers the gate's decision in the envelope's order and checks nothing again", () => {
    const r = messageRig();
    const { c, socket } = r.client({ readOnly: true });
    const env = (n: number) => ({ commandId: `direct-${n}`, clientId: 'cl', seq: n, viewId: 'sess', instanceId: 'gen' });
    // Let through by the gate: it runs, read-only client or not (dispatch never lets such a one through).
    r.control.admit(c, { type: 'redraw' }, env(1), { refused: null, observedAfterExit: false }, () => void r.calls.push('ran'));
    expect(r.calls).toEqual(['ran']);
    // Refused by the gate, but for another session: the fencing answers first.
    r.control.admit(c, { type: 'redraw' }, { ...env(2), viewId: 'other' }, { refused: { code: 'read_only', message: 'no' }, observedAfterExit: false }, () => void r.calls.push('ran again'));
    expect(socket.sent.at(-1)).toMatchObject({ type: 'cmd_ack', commandId: 'direct-2', stage: 'rejected', code: 'view_mismatch' });
    expect(r.calls).toEqual(['ran']);
  });
});
