import { describe, expect, it } from 'vitest';
import { checkAllowHost, defaultSandbox, parseSandboxBackend } from '../../src/core/sandbox/sandbox-config.js';
import { parseUserConfig } from '../../src/core/user-config.js';

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
      'c.json: "sandbox"."allowHosts"."*": host "https://x.com/" is not a host name: use host, *.domain or host:port; ignored',
      'c.json: "sandbox"."allowHosts"."*": host "a.com:99999": the port must be 1 to 65535; ignored',
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

  it('reads --sandbox values and allowlist entries', () => {
    expect(parseSandboxBackend(undefined)).toEqual({ backend: 'bwrap' });
    expect(parseSandboxBackend('container')).toEqual({ backend: 'container' });
    expect(parseSandboxBackend('container:ghcr.io/a/b:1')).toEqual({ backend: 'container', image: 'ghcr.io/a/b:1' });
    expect(parseSandboxBackend('docker')).toBe('unknown sandbox "docker": use bwrap, container or container:IMAGE');
    expect(checkAllowHost('127.0.0.1:8080')).toBeNull();
    expect(checkAllowHost('*.example.com')).toBeNull();
    expect(checkAllowHost('a b')).not.toBeNull();
  });
});
