/**
 * `agent-board web` as a user runs it (docs/web.md): a real detached server in a temp home, its
 * start, status, stop and second start, the pairing of a browser and a session's row on its socket.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPidAlive } from '../../src/state/host-store.js';
import { cli, destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';
import { modeOf, openWs, pairDevice, request, serverInfo, startWeb, stopWeb } from './web-server-helpers.js';

let home: string;
beforeEach(() => {
  home = makeHome();
});
afterEach(() => {
  stopWeb(home);
  destroyHome(home);
});

describe('agent-board web', () => {
  it('starts detached and prints its URL; a second start says where it runs; status and stop say and do what they say', async () => {
    const { info, run } = startWeb(home);
    expect(run.stdout).toContain(`running at ${info.url}`);
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(isPidAlive(info.pid)).toBe(true);
    expect((await request(info.url, '/')).status).toBe(200);

    const again = cli(home, ['web', '--port', '0']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`already running at ${info.url}`);
    expect(serverInfo(home).pid).toBe(info.pid);

    const status = cli(home, ['web', '--status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(`running at ${info.url}`);

    const stop = cli(home, ['web', '--stop']);
    expect(stop.code).toBe(0);
    expect(stop.stdout).toContain('stopped');
    await waitFor('the server gone', () => !isPidAlive(info.pid));
    expect(fs.existsSync(path.join(home, 'web', 'server.json'))).toBe(false);
    const after = cli(home, ['web', '--status']);
    expect(after.code).toBe(1);
    expect(after.stdout.trim()).toBe('not running');
    expect(cli(home, ['web', '--stop']).stdout.trim()).toBe('not running');
  });

  it('outlives a hangup; killed outright, it leaves every session running, status says so and a start takes over', async () => {
    const id = newSession(home, ['--name', 'keeps', '--', 'sleep', '60']);
    const { info } = startWeb(home);
    process.kill(info.pid, 'SIGHUP');
    await new Promise((r) => setTimeout(r, 300));
    expect(cli(home, ['web', '--status']).code).toBe(0);
    process.kill(info.pid, 'SIGKILL');
    await waitFor('the server gone', () => !isPidAlive(info.pid));
    // Its server.json is left behind, naming a process that is gone.
    expect(fs.existsSync(path.join(home, 'web', 'server.json'))).toBe(true);
    expect(cli(home, ['web', '--status']).code).toBe(1);
    const ls = JSON.parse(cli(home, ['ls', '--json']).stdout) as Array<{ id: string; status: string }>;
    expect(ls.find((s) => s.id === id)?.status).toBe('running');
    const next = startWeb(home).info;
    expect(next.pid).not.toBe(info.pid);
    expect((await request(next.url, '/')).status).toBe(200);
  });

  it('a port already taken fails the start with one line that says so', async () => {
    const taken = net.createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    try {
      const port = (taken.address() as net.AddressInfo).port;
      const r = cli(home, ['web', '--port', String(port)]);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/EADDRINUSE/);
      expect(cli(home, ['web', '--status']).code).toBe(1);
    } finally {
      taken.close();
    }
  });

  it('a paired browser gets an HttpOnly SameSite=Strict cookie, is listed by web devices, and its socket says welcome and the rows of real sessions', async () => {
    newSession(home, ['--name', 'webrow', '--', 'sh', '-c', 'echo hello-web; exec sleep 60']);
    const { info } = startWeb(home);
    const dev = await pairDevice(home, info.url, ['--name', 'my phone']);
    expect(dev.setCookie).toMatch(/^ab_device=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=\d+$/);
    expect(dev.setCookie).not.toContain('Secure'); // plain http on loopback: a Secure cookie would never come back

    const me = await request(info.url, '/api/me', { headers: { Cookie: dev.cookie } });
    expect(me.status).toBe(200);
    expect(JSON.parse(me.body)).toEqual({ id: dev.id, name: 'my phone', readOnly: false });

    const ws = await openWs(info.url, { cookie: dev.cookie });
    expect(ws.ok).toBe(true);
    if (!ws.ok) return;
    const [welcome, rows] = (await ws.first) as [{ t: string; device: string; readOnly: boolean }, { t: string; rows: Array<{ name: string; kind: string }> }];
    expect(welcome).toMatchObject({ t: 'welcome', device: dev.id, readOnly: false });
    expect(rows.t).toBe('rows');
    expect(rows.rows.map((r) => r.name)).toEqual(['webrow']);
    ws.ws.close();

    const list = JSON.parse(cli(home, ['web', 'devices', '--json']).stdout) as Array<Record<string, unknown>>;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id: dev.id, name: 'my phone', readOnly: false });
    expect(list[0]).not.toHaveProperty('tokenHash');
    expect(typeof list[0]!.lastSeen).toBe('string');
    const table = cli(home, ['web', 'devices']).stdout;
    expect(table).toMatch(/ID\s+NAME\s+LAST SEEN\s+READ-ONLY/);
    expect(table).toMatch(new RegExp(`${dev.id}\\s+my phone\\s+.*ago\\s+no`));

    // Only the token's hash is kept, and every file is the owner's alone.
    const devicesJson = fs.readFileSync(path.join(home, 'web', 'devices.json'), 'utf8');
    expect(devicesJson).not.toContain(dev.cookie.split('=')[1]);
    expect(modeOf(path.join(home, 'web'))).toBe('700');
    for (const f of ['devices.json', 'server.json', 'server.log']) expect(modeOf(path.join(home, 'web', f))).toBe('600');
  });

  it('a read-only pairing makes a read-only device, and its welcome says so', async () => {
    const { info } = startWeb(home);
    const dev = await pairDevice(home, info.url, ['--read-only']);
    const ws = await openWs(info.url, { cookie: dev.cookie });
    if (!ws.ok) throw new Error(`refused: ${ws.status}`);
    expect((await ws.first)[0]).toMatchObject({ t: 'welcome', readOnly: true });
    ws.ws.close();
    expect(cli(home, ['web', 'devices']).stdout).toMatch(new RegExp(`${dev.id}\\s+test phone\\s+.*\\s+yes`));
  });

  it('web pair needs a running server, and prints a QR code of the link with the code', () => {
    const none = cli(home, ['web', 'pair']);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/not running: start it with agent-board web/);
    const { info } = startWeb(home);
    const r = cli(home, ['web', 'pair']);
    expect(r.code).toBe(0);
    const code = /^code: (\w{4})-(\w{4})/m.exec(r.stdout)!;
    expect(r.stdout).toContain(`open: ${info.url}#pair=${code[1]}${code[2]}`);
    expect(r.stdout).toMatch(/[█▀▄]{7}/); // the QR code's blocks
    expect(modeOf(path.join(home, 'web', 'pairing.json'))).toBe('600');
    expect(fs.readFileSync(path.join(home, 'web', 'pairing.json'), 'utf8')).not.toContain(code[1]! + code[2]!);
  });

  it("a host of config.json that cannot be reached shows as such on the page's socket, and this machine's rows still come", async () => {
    const config = path.join(home, 'config');
    fs.mkdirSync(config, { mode: 0o700 });
    fs.writeFileSync(path.join(config, 'config.json'), JSON.stringify({ hosts: ['nobody@127.0.0.1'] }));
    newSession(home, ['--name', 'local-row', '--', 'sh', '-c', 'exec sleep 60']);
    // Port 1 on loopback refuses at once: the host is down, not slow.
    const env = { AGENT_BOARD_CONFIG_HOME: config, AGENT_BOARD_SSH_OPTS: '-p 1 -o ConnectTimeout=3' };
    const run = cli(home, ['web', '--port', '0'], { env });
    expect(run.code, run.stderr).toBe(0);
    const info = serverInfo(home);
    const dev = await pairDevice(home, info.url);
    const ws = await openWs(info.url, { cookie: dev.cookie });
    if (!ws.ok) throw new Error(`refused: ${ws.status}`);
    const frames: Array<{ t: string; rows?: Array<{ name: string }>; hostLines?: string[] }> = [];
    ws.ws.on('message', (d) => frames.push(JSON.parse(String(d)) as (typeof frames)[number]));
    const rows = await waitFor('a line for the unreachable host', () => [...frames].reverse().find((f) => f.t === 'rows' && (f.hostLines?.length ?? 0) > 0), 20_000);
    expect(rows.hostLines!.join('\n')).toContain('127.0.0.1');
    expect(rows.rows!.map((r) => r.name)).toContain('local-row');
    ws.ws.close();
  });

  it('serves every file the page names (its scripts and their chunks, style, worker, manifest and icons), each with its type', async () => {
    const { info } = startWeb(home);
    const index = await request(info.url, '/');
    const named = new Set<string>();
    for (const m of index.body.matchAll(/(?:src|href)="(\/[^"]+)"/g)) named.add(m[1]!);
    const manifest = JSON.parse((await request(info.url, '/manifest.webmanifest')).body) as { icons: Array<{ src: string }> };
    for (const icon of manifest.icons) named.add(icon.src);
    const app = await request(info.url, '/app.js');
    for (const m of app.body.matchAll(/["'](?:\.\/|\/)(chunk-[A-Z0-9]+\.js)["']/g)) named.add(`/${m[1]}`);
    named.add('/sw.js');
    expect([...named].some((p) => p.startsWith('/chunk-')), 'app.js imports the terminal as a chunk').toBe(true);
    for (const p of named) {
      const r = await request(info.url, p);
      expect(r.status, p).toBe(200);
      const ext = path.extname(p);
      const type = { '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.webmanifest': 'application/manifest+json' }[ext];
      expect(r.headers['content-type'], p).toContain(type);
    }
  });
});
