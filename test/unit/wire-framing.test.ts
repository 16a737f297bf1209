/**
 * The runner's side of the framings: the hello picks one per client (the reply itself in NDJSON),
 * every frame after it goes in that framing, and a live chunk or status push shared by many
 * clients is encoded once per framing, not once per client.
 */
import type net from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Framing } from '../../src/core/protocol/binary-framing.js';
import { encodeFrame } from '../../src/core/protocol/frame-decoder.js';
import type { ClientHello } from '../../src/core/protocol/client-messages.js';
import type { HostRecord } from '../../src/core/protocol/host-record.js';
import type { RunnerMessage } from '../../src/core/protocol/runner-messages.js';
import { createReplyDecoder } from '../../src/core/protocol/reply-framing.js';
import { ClientConn } from '../../src/runner/clients/client-conn.js';
import { ClientSet } from '../../src/runner/clients/client-set.js';
import { MESSAGES, type SessionOps } from '../../src/runner/control/message-table.js';
import { SharedFrame } from '../../src/runner/clients/wire-framing.js';

/** A socket that keeps every write as it was handed over (a string or bytes). */
function rawSocket() {
  const writes: Array<string | Uint8Array> = [];
  const socket = {
    destroyed: false,
    writable: true,
    writableEnded: false,
    writableLength: 0,
    write: (d: string | Uint8Array) => void writes.push(d),
    end: (d?: string | Uint8Array) => void (d !== undefined && writes.push(d)),
    destroy: () => undefined,
  };
  return { writes, socket: socket as unknown as net.Socket };
}

const utf8 = (b: Uint8Array, s: number, e: number) => new TextDecoder().decode(b.subarray(s, e));
/** What a new client reads from these writes. */
const read = (writes: Array<string | Uint8Array>) => {
  const d = createReplyDecoder(utf8);
  return writes.flatMap((w) => d.push(typeof w === 'string' ? new TextEncoder().encode(w) : w)).map((f) => (f.ok ? f.value : f));
};

const ops = { generation: 'gen', record: { id: 'sess' } as HostRecord } as SessionOps;
function client(framing?: string[]) {
  const { writes, socket } = rawSocket();
  const c = new ClientConn(socket, () => undefined);
  const hello = (msg: Partial<ClientHello> = {}) =>
    MESSAGES.hello.handle(ops, { c, msg: { type: 'hello', protocol: 1, framing, ...msg }, env: undefined, acks: null });
  return { c, writes, hello };
}

describe('framing per client in the runner', () => {
  it('a hello offering binary1: the reply is an NDJSON line naming it, everything after is binary', () => {
    const { c, writes, hello } = client(['binary1']);
    hello();
    expect(writes[0]).toBe(encodeFrame({ type: 'hello', protocol: 1, generation: 'gen', host: { id: 'sess' }, framing: 'binary1' }));
    expect(c.framing).toBe('binary1');
    c.send({ type: 'output', seq: 0, data: 'é' });
    expect(writes[1]).toBeInstanceOf(Uint8Array);
    // A second hello keeps the framing (the client reads binary by now) and is answered in it.
    hello({ framing: undefined });
    expect(c.framing).toBe('binary1');
    expect(writes[2]).toBeInstanceOf(Uint8Array);
    expect(read(writes)).toEqual([
      { type: 'hello', protocol: 1, generation: 'gen', host: { id: 'sess' }, framing: 'binary1' },
      { type: 'output', seq: 0, data: 'é' },
      { type: 'hello', protocol: 1, generation: 'gen', host: { id: 'sess' }, framing: 'binary1' },
    ]);
  });

  it('a hello offering nothing (an older client, socat) gets exactly the reply it always got, and NDJSON after', () => {
    for (const offer of [undefined, [], ['binary9']]) {
      const { c, writes, hello } = client(offer);
      hello();
      c.send({ type: 'output', seq: 0, data: 'é' });
      expect(writes).toEqual(['{"type":"hello","protocol":1,"generation":"gen","host":{"id":"sess"}}\n', '{"type":"output","seq":0,"data":"é"}\n']);
      expect(c.framing).toBe('ndjson');
    }
  });

  it('a live chunk and a status push are encoded once per framing, shared by every client of it', () => {
    const clients: Array<{ c: ClientConn; writes: Array<string | Uint8Array>; framing: Framing }> = [];
    for (const framing of ['ndjson', 'binary1', 'ndjson', 'binary1'] as const) {
      const { c, writes, hello } = client(framing === 'binary1' ? ['binary1'] : undefined);
      hello();
      c.goLive(4, []);
      writes.length = 0;
      clients.push({ c, writes, framing });
    }
    const frame = new SharedFrame({ type: 'output', seq: 4, data: '\x1b[1m€' });
    for (const { c } of clients) expect(c.pushLive({ seq: 4, data: '\x1b[1m€' }, frame)).toBe(true);
    const set = new ClientSet();
    for (const { c } of clients) {
      c.watchStatus();
      set.add(c);
    }
    set.pushStatus({ id: 'sess' } as HostRecord, 'gen');
    const [nd1, bin1, nd2, bin2] = clients;
    expect(bin1!.writes[0]).toBe(bin2!.writes[0]); // the very same bytes
    expect(bin1!.writes[1]).toBe(bin2!.writes[1]);
    expect(nd1!.writes).toEqual(nd2!.writes);
    const want: RunnerMessage[] = [
      { type: 'output', seq: 4, data: '\x1b[1m€' },
      { type: 'status', host: { id: 'sess' } as HostRecord, generation: 'gen' },
    ];
    const hello = encodeFrame({ type: 'hello' }); // puts the decoder past the hello: NDJSON stays, binary1 switches
    const helloBin = encodeFrame({ type: 'hello', framing: 'binary1' });
    expect(read([hello, ...nd1!.writes]).slice(1)).toEqual(want);
    expect(read([helloBin, ...bin1!.writes]).slice(1)).toEqual(want);
  });
});
