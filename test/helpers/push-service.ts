/**
 * A push service for tests, on 127.0.0.1: it takes what web-push POSTs to a subscription's
 * endpoint, checks the VAPID authorization names this server's key, and decrypts the aes128gcm
 * payload with the subscription's own keys, as the browser would (http_ece: an ECDH P-256 key
 * pair and an auth secret this helper made with node:crypto, never sent anywhere).
 *
 * web-push always speaks https (it calls https.request), so this one does too, with a certificate
 * made here by openssl for 127.0.0.1; `sendWebPush` is web-push's own sendNotification with an
 * agent that trusts that certificate, handed to createPush as its sendWebPush.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { decrypt } from 'http_ece';
import webpush from 'web-push';
import type { PushSubscriptionJson } from '../../src/core/web/web-protocol.js';
import type { SendWebPush } from '../../src/web/server/push/push.js';

export interface Delivered {
  /** The subscription's name (the endpoint's last part). */
  name: string;
  /** The payload as the service worker gets it. */
  payload: { title: string; body: string; id: string; url: string };
  ttl: string | undefined;
  urgency: string | undefined;
  /** The Topic header: one per session (a newer notice replaces one not delivered yet). */
  topic: string | undefined;
  /** The `k=` of the VAPID Authorization header: the server's public key. */
  vapidKey: string | undefined;
}

interface Sub {
  ecdh: crypto.ECDH;
  auth: Buffer;
  /** What the service answers a push (201 unless the test says otherwise, e.g. 410 gone). */
  status: number;
}

const b64url = (b: Buffer) => b.toString('base64url');

export class PushService {
  readonly delivered: Delivered[] = [];
  /** Every POST, answered or not: [name, status]. */
  readonly requests: [string, number][] = [];
  private readonly subs = new Map<string, Sub>();
  private readonly waiters: (() => void)[] = [];

  private constructor(private readonly server: https.Server, readonly url: string, private readonly ca: string, private readonly dir: string) {}

  static async start(): Promise<PushService> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-push-service-'));
    const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    const ca = fs.readFileSync(cert, 'utf8');
    let self: PushService | null = null;
    const server = https.createServer({ key: fs.readFileSync(key), cert: ca }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => self!.handle(req, Buffer.concat(chunks), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    self = new PushService(server, `https://127.0.0.1:${port}`, ca, dir);
    return self;
  }

  /** Its certificate, for a process of ours that must trust it (NODE_EXTRA_CA_CERTS of a web server started by the CLI). */
  get caFile(): string {
    return path.join(this.dir, 'cert.pem');
  }

  /** A new subscription, as a browser's PushManager.subscribe would give the page. */
  subscription(name: string, status = 201): PushSubscriptionJson {
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = crypto.randomBytes(16);
    this.subs.set(name, { ecdh, auth, status });
    return { endpoint: `${this.url}/push/${name}`, keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) } };
  }

  /** web-push's own sender, trusting this service's certificate. */
  get sendWebPush(): SendWebPush {
    const agent = new https.Agent({ ca: this.ca });
    return (sub, payload, options) => webpush.sendNotification(sub, payload, { ...options, agent });
  }

  /** Waits until `pred` holds over what was delivered (checked at each delivery). */
  async until<T>(what: string, pred: (d: Delivered[]) => T | undefined | null | false, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = pred(this.delivered);
      if (v) return v;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`push service: timed out waiting for ${what}; delivered ${JSON.stringify(this.delivered)}; requests ${JSON.stringify(this.requests)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private handle(req: import('node:http').IncomingMessage, body: Buffer, res: import('node:http').ServerResponse): void {
    const name = /^\/push\/([^/]+)$/.exec(req.url ?? '')?.[1] ?? '';
    const sub = this.subs.get(name);
    const status = req.method !== 'POST' || !sub ? 404 : sub.status;
    this.requests.push([name, status]);
    if (sub && status === 201) {
      if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error(`push service: content-encoding ${req.headers['content-encoding']}`);
      const plain = decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: b64url(sub.auth) });
      const vapidKey = /\bk=([A-Za-z0-9_-]+)/.exec(String(req.headers.authorization ?? ''))?.[1];
      this.delivered.push({ name, payload: JSON.parse(plain.toString('utf8')) as Delivered['payload'], ttl: req.headers.ttl as string | undefined, urgency: req.headers.urgency as string | undefined, topic: req.headers.topic as string | undefined, vapidKey });
    }
    res.writeHead(status).end();
    for (const w of this.waiters.splice(0)) w();
  }
}
