import { describe, expect, it } from 'vitest';
import { defaultSandbox, parseSandboxBackend } from '../../src/core/sandbox/sandbox-config.js';
import { parseUserConfig } from '../../src/core/user-config.js';
import { sandboxFlags, sandboxLines } from '../../src/core/sandbox/sandbox-text.js';

const parse = (sandbox: unknown) => parseUserConfig(JSON.stringify({ sandbox }), 'c.json');

describe("config.json's sandbox", () => {
  it('reads the contract example: kinds and rooms sandboxed by default, hosts per kind and for all, paths denied', () => {
    const { config, errors } = parse({
      kinds: { codex: { network: 'allowlist' }, claude: { backend: 'container', image: 'x' }, gemini: true, pi: false },
      rooms: { risky: { network: 'none' } },
      allowHosts: { '*': ['internal.example.com'], claude: ['mcp.example.com', '*.corp.example:8443'] },
      denyRead: ['~/secrets', '/srv/keys'],
    });
    expect(errors).toEqual([]);
    expect(config.sandbox).toEqual({
      kinds: { codex: { backend: 'bwrap', network: 'allowlist' }, claude: { backend: 'container', image: 'x', network: 'allowlist' }, gemini: { backend: 'bwrap', network: 'allowlist' } },
      rooms: { risky: { backend: 'bwrap', network: 'none' } },
      allowHosts: { '*': ['internal.example.com'], claude: ['mcp.example.com', '*.corp.example:8443'] },
      denyRead: ['~/secrets', '/srv/keys'],
    });
  });

  it('is off when absent', () => {
    const { config, errors } = parseUserConfig('{}', 'c.json');
    expect(errors).toEqual([]);
    expect(config.sandbox).toEqual({ kinds: {}, rooms: {}, allowHosts: {}, denyRead: [] });
    expect(defaultSandbox(config.sandbox, 'claude', 'default', '/home/me')).toBeNull();
  });

  it('says each bad entry in one line and keeps the good ones', () => {
    const { config, errors } = parse({
      kinds: { codex: { network: 'some' }, claude: { network: 'none', colour: 1 }, pi: 'yes', gemini: { image: 'x' } },
      rooms: [],
      allowHosts: { '*': ['https://x.com/', 'ok.com', 'a.com:99999', 7] },
      denyRead: ['relative/path', '~'],
      extra: 1,
    });
    expect(config.sandbox.kinds).toEqual({ claude: { backend: 'bwrap', network: 'none' } });
    expect(config.sandbox.allowHosts).toEqual({ '*': ['ok.com'] });
    expect(config.sandbox.denyRead).toEqual(['~']);
    expect(errors).toEqual([
      'c.json: "sandbox": unknown setting "extra" ignored (known: kinds, rooms, allowHosts, denyRead)',
      'c.json: "sandbox"."kinds"."codex"."network" must be one of all, allowlist, none; ignored',
      'c.json: "sandbox"."kinds"."claude": unknown setting "colour" ignored',
      'c.json: "sandbox"."kinds"."pi" must be true or an object like {"network": "allowlist"}; ignored',
      'c.json: "sandbox"."kinds"."gemini"."image" goes with "backend": "container" and is an image name; ignored',
      'c.json: "sandbox"."rooms" must be an object of rooms; ignored',
      'c.json: "sandbox"."allowHosts"."*": https://x.com/: a host, not a URL (drop the scheme and path); ignored',
      'c.json: "sandbox"."allowHosts"."*": a.com:99999: the port must be 1 to 65535; ignored',
      'c.json: "sandbox"."allowHosts"."*": 7 is not a string; ignored',
      'c.json: "sandbox"."denyRead": path "relative/path" must be absolute or start with ~/; ignored',
    ]);
    for (const e of errors) expect(e).not.toContain('\n');
  });

  it("gives a room's default over its kind's", () => {
    const { config } = parse({ kinds: { claude: { network: 'all' } }, rooms: { risky: { network: 'none' } } });
    expect(defaultSandbox(config.sandbox, 'claude', 'risky', '/home/me')).toEqual({ backend: 'bwrap', network: 'none' });
    expect(defaultSandbox(config.sandbox, 'claude', 'default', '/home/me')).toEqual({ backend: 'bwrap', network: 'all' });
    expect(defaultSandbox(config.sandbox, 'codex', 'default', '/home/me')).toBeNull();
    // A record keeps absolute paths: an entry's ~ is the user's home.
    const withPaths = parse({ kinds: { pi: { denyRead: ['~/secrets', '~', '/srv/keys'] } } }).config.sandbox;
    expect(defaultSandbox(withPaths, 'pi', 'default', '/home/me')!.denyRead).toEqual(['/home/me/secrets', '/home/me', '/srv/keys']);
  });

  it('reads --sandbox values', () => {
    expect(parseSandboxBackend(undefined)).toEqual({ backend: 'bwrap' });
    expect(parseSandboxBackend('container')).toEqual({ backend: 'container' });
    expect(parseSandboxBackend('container:ghcr.io/a/b:1')).toEqual({ backend: 'container', image: 'ghcr.io/a/b:1' });
    expect(parseSandboxBackend('docker')).toBe('unknown sandbox "docker": use bwrap, container or container:IMAGE');
  });
});

describe('the words of a sandbox', () => {
  const at = (h: number, m: number) => new Date(2026, 0, 1, h, m).toISOString();
  it('refused hosts: the most recent first, a few, then how many more; a full list says it keeps the most recent', () => {
    const d = (host: string, n: number, last: string) => ({ host, port: 443, count: n, first: last, last });
    const now = Date.parse(at(12, 5));
    const r = (denied: ReturnType<typeof d>[]) => sandboxLines({ sandbox: { backend: 'bwrap', network: 'allowlist' }, sandboxDenied: denied }, now).slice(5);
    expect(r([d('a.com', 1, at(11, 58)), d('github.com', 3, at(12, 3))])).toEqual([['refused', 'github.com:443 ×3, last 12:03:00 (2m ago)'], ['', 'a.com:443, last 11:58:00 (7m ago)']]);
    const many = Array.from({ length: 20 }, (_, i) => d(`h${i}.com`, 1, at(10, i)));
    const lines = r(many);
    expect(lines.map(([l]) => l)).toEqual(['refused', '', '', '', '']);
    expect(lines[0]![1]).toMatch(/^h19\.com:443, last 10:19:00/);
    expect(lines[4]).toEqual(['', '+16 more (the 20 most recent kept)']);
  });

  it('explain lines: none unsandboxed; the whole allowlist and the places when known', () => {
    expect(sandboxLines({}, 0)).toEqual([]);
    const lines = sandboxLines({ sandbox: { backend: 'container', image: 'node:22', network: 'allowlist' } }, 0, ['a', 'b', 'c', 'd', 'e', 'f'], { writable: ['/w'], hidden: ['/h1', '/h2'] });
    expect(lines).toEqual([
      ['sandbox', 'a container (podman or docker), image node:22'],
      ['network', 'allowlist: only the listed hosts, through a proxy'],
      ['', '  hosts: a, b, c, d +2 more (6 in all)'],
      ['writes', '/w'],
      ['hidden', '/h1, /h2'],
      ['refused', 'no host so far'],
    ]);
    expect(sandboxFlags({ backend: 'bwrap', network: 'none', allowHosts: ['x.org'] })).toEqual(['--sandbox', '--network', 'none', '--allow-host', 'x.org']);
  });
});
