/** POST /api/pair {code, name}: a pairing code traded for a device and its cookie (docs/web.md, "Pairing"). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../../../core/clock.js';
import { addDevice, deviceName } from '../auth/devices.js';
import { tradePairing } from '../auth/pairing.js';
import { answer } from './headers.js';
import { deviceCookie } from './request-checks.js';

/** A pairing request is a code and a name: anything bigger is not one. */
const PAIR_BODY_MAX = 4096;

const json = (res: ServerResponse, status: number, v: unknown) => answer(res, status, JSON.stringify(v) + '\n', 'application/json');

export function pairRoute(req: IncomingMessage, res: ServerResponse, o: { home: string; clock: Clock; secure: boolean; log(line: string): void }): void {
  if (req.method !== 'POST') return json(res, 405, { error: 'POST a code' });
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (res.writableEnded) return; // answered already: the rest is read and dropped
    if (size > PAIR_BODY_MAX) {
      // The answer first (a destroyed request would lose it), then the connection ends with it.
      res.setHeader('Connection', 'close');
      json(res, 413, { error: 'too large' });
    } else chunks.push(c);
  });
  req.on('end', () => {
    if (res.writableEnded) return;
    let body: { code?: unknown; name?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code?: unknown; name?: unknown };
    } catch {
      return json(res, 400, { error: 'send JSON: {"code": "...", "name": "..."}' });
    }
    if (typeof body?.code !== 'string' || body.code.length > 100) return json(res, 400, { error: 'send the code' });
    const trade = tradePairing(o.home, o.clock, body.code);
    if (!trade.ok) {
      o.log(`pairing refused (${trade.why}) from ${req.socket.remoteAddress ?? '?'}`);
      return json(res, trade.why === 'spent' ? 429 : 401, { error: trade.line });
    }
    const { device, token } = addDevice(o.home, o.clock, { name: trade.name ?? deviceName(body.name), readOnly: trade.readOnly });
    o.log(`paired device ${device.id} (${device.name}${device.readOnly ? ', read-only' : ''}) from ${req.socket.remoteAddress ?? '?'}`);
    res.setHeader('Set-Cookie', deviceCookie(token, o.secure));
    json(res, 200, { id: device.id, name: device.name, readOnly: device.readOnly });
  });
  req.on('error', (e) => o.log(`pairing request failed: ${e.message}`));
}
