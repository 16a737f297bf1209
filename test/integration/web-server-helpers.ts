/** What the web server's tests share: a server started in a temp home, raw HTTP requests, a ws client, a pairing. */
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import WebSocket from 'ws';
import { cli, type CliResult } from '../helpers/home.js';

export interface Info {
  pid: number;
  url: string;
  port: number;
  host: string;
  tls: boolean;
}

export const serverInfo = (home: string): Info => JSON.parse(fs.readFileSync(path.join(home, 'web', 'server.json'), 'utf8')) as Info;

/** `agent-board web --port 0 ...`: started and listening, or the test fails with the CLI's own words. */
export function startWeb(home: string, extra: string[] = []): { info: Info; run: CliResult } {
  const run = cli(home, ['web', '--port', '0', ...extra]);
  if (run.code !== 0) throw new Error(`web failed (${run.code}): ${run.stderr}`);
  return { info: serverInfo(home), run };
}

export function stopWeb(home: string): void {
  if (fs.existsSync(path.join(home, 'web', 'server.json'))) cli(home, ['web', '--stop']);
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request, its path sent exactly as given (no normalizing: `/../x` stays `/../x`). */
export function request(base: string, p: string, o: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  const u = new URL(base);
  const mod = u.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(
      { host: u.hostname, port: u.port, path: p, method: o.method ?? 'GET', headers: o.headers, rejectUnauthorized: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}

/** The server's own origin, as a browser on its URL sends it. */
export const originOf = (url: string) => new URL(url).origin;

/** `web pair`: the code it printed. */
export function pairCode(home: string, extra: string[] = []): string {
  const r = cli(home, ['web', 'pair', ...extra]);
  if (r.code !== 0) throw new Error(`web pair failed (${r.code}): ${r.stderr}`);
  const m = /^code: ([A-Z0-9]{4})-([A-Z0-9]{4})/m.exec(r.stdout);
  if (!m) throw new Error(`no code in:\n${r.stdout}`);
  return m[1]! + m[2]!;
}

export const tradeCode = (url: string, code: string, name = 'test phone') =>
  request(url, '/api/pair', { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: originOf(url) }, body: JSON.stringify({ code, name }) });

/** A paired device: the `ab_device=...` cookie its browser would send back. */
export async function pairDevice(home: string, url: string, extra: string[] = []): Promise<{ cookie: string; id: string; setCookie: string }> {
  const r = await tradeCode(url, pairCode(home, extra));
  if (r.status !== 200) throw new Error(`pairing failed (${r.status}): ${r.body}`);
  const setCookie = r.headers['set-cookie']![0]!;
  return { cookie: setCookie.split(';')[0]!, id: (JSON.parse(r.body) as { id: string }).id, setCookie };
}

export type WsResult = { ok: true; ws: WebSocket; first: Promise<unknown[]> } | { ok: false; status: number };

/** Opens /api/ws; resolves with the socket (and its first two frames) or the HTTP status it was refused with. */
export function openWs(url: string, o: { cookie?: string; origin?: string | null } = {}): Promise<WsResult> {
  const wsUrl = url.replace(/^http/, 'ws') + 'api/ws';
  const headers: Record<string, string> = o.cookie ? { Cookie: o.cookie } : {};
  const ws = new WebSocket(wsUrl, { headers, rejectUnauthorized: false, ...(o.origin === null ? {} : { origin: o.origin ?? originOf(url) }) });
  const frames: unknown[] = [];
  const first = new Promise<unknown[]>((resolve) => {
    ws.on('message', (d) => {
      frames.push(JSON.parse(String(d)));
      if (frames.length === 2) resolve(frames);
    });
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ok: true, ws, first }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ ok: false, status: res.statusCode ?? 0 });
      res.resume();
      ws.terminate();
    });
    ws.once('error', (e) => reject(e));
  });
}

export const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);
