/**
 * A sandbox's allowlist (src/core/sandbox/default-hosts.ts): what each kind may reach by default,
 * how config.json's and the session's own lists add to it, and which entries are refused with a line.
 */
import { describe, expect, it } from 'vitest';
import { REGISTRY_HOSTS, allowHostProblem, allowHostsFor, defaultAllowHosts } from '../../src/core/sandbox/default-hosts.js';

describe('the default allowlist of a kind', () => {
  it("claude, codex, gemini and pi get their vendor's hosts, then the registries", () => {
    expect(defaultAllowHosts('claude').slice(0, 1)).toEqual(['api.anthropic.com']);
    expect(defaultAllowHosts('claude')).toEqual(expect.arrayContaining(['statsig.anthropic.com', 'sentry.io', ...REGISTRY_HOSTS]));
    expect(defaultAllowHosts('codex')).toEqual(['api.openai.com', 'chatgpt.com', 'auth.openai.com', 'api.github.com', ...REGISTRY_HOSTS]);
    expect(defaultAllowHosts('gemini')).toEqual(expect.arrayContaining(['generativelanguage.googleapis.com', 'cloudcode-pa.googleapis.com', 'oauth2.googleapis.com', 'accounts.google.com']));
    expect(defaultAllowHosts('pi')).toEqual(expect.arrayContaining(['api.anthropic.com', 'api.openai.com', 'openrouter.ai']));
    expect(defaultAllowHosts('codex')).not.toContain('api.anthropic.com');
  });

  it('a shell, a custom kind or a name like a property of every object: the registries only', () => {
    expect(defaultAllowHosts('shell')).toEqual([...REGISTRY_HOSTS]);
    expect(defaultAllowHosts('my-tool')).toEqual([...REGISTRY_HOSTS]);
    expect(defaultAllowHosts('constructor')).toEqual([...REGISTRY_HOSTS]);
  });

  it('every kind reaches npm, PyPI and GitHub', () => {
    for (const kind of ['claude', 'codex', 'gemini', 'pi', 'shell']) expect(defaultAllowHosts(kind)).toEqual(expect.arrayContaining(['registry.npmjs.org', 'pypi.org', 'files.pythonhosted.org', 'github.com']));
  });
});

describe("a session's allowlist", () => {
  const config = { '*': ['internal.example.com'], claude: ['mcp.example.com'], codex: ['codex-only.example.com'] };

  it("adds config.json's every-kind and own-kind lists, then the session's, in that order", () => {
    const hosts = allowHostsFor('claude', { allowHosts: ['127.0.0.1:8080'] }, config);
    expect(hosts.slice(-3)).toEqual(['internal.example.com', 'mcp.example.com', '127.0.0.1:8080']);
    expect(hosts).not.toContain('codex-only.example.com');
    expect(hosts.slice(0, defaultAllowHosts('claude').length)).toEqual(defaultAllowHosts('claude'));
  });

  it('each host once, compared without case; blank entries dropped', () => {
    const hosts = allowHostsFor('shell', { allowHosts: ['GitHub.com', ' pypi.org ', '', 'x.example.com'] }, { '*': ['X.example.com'] });
    expect(hosts).toEqual([...REGISTRY_HOSTS, 'x.example.com']);
  });

  it('no config and no session list: the defaults', () => {
    expect(allowHostsFor('gemini', {}, undefined)).toEqual(defaultAllowHosts('gemini'));
  });
});

describe('an allowlist entry the proxy would not read as meant', () => {
  it.each(['example.com', 'api.example.com:443', '*.example.com', '*.example.com:8443', '127.0.0.1:8080', '127.0.0.1', 'localhost', 'localhost:3000', '[::1]', '[::1]:8080'])('%s is fine', (h) => {
    expect(allowHostProblem(h)).toBeNull();
  });

  it.each([
    ['https://example.com', 'a host, not a URL'],
    ['example.com/path', 'a host, not a URL'],
    ['*.com', 'a wildcard needs a domain of two names or more'],
    ['*', 'a wildcard needs'],
    ['api.*.example.com', 'a wildcard only as the first name'],
    ['example.com:0', 'the port must be 1 to 65535'],
    ['example.com:70000', 'the port must be 1 to 65535'],
    ['::1', 'an IPv6 address goes in brackets'],
    ['intranet', 'not a host name or IP address'],
    ['', 'an empty host'],
  ])('%s: %s', (h, why) => {
    expect(allowHostProblem(h)).toContain(why);
  });
});
