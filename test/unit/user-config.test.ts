import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, isHostSpec, parseUserConfig } from '../../src/core/user-config.js';

describe('config.json', () => {
  it('takes every setting, hosts deduplicated in order', () => {
    const { config, errors } = parseUserConfig('{"hosts": ["b", "me@a", "b"], "autoRevive": true, "systemdScope": false, "budgets": {"rooms": {"r1": {"usd": 20}}, "day": {"tokens": 5000000}}}', 'c.json');
    expect(errors).toEqual([]);
    expect(config).toEqual({ hosts: ['b', 'me@a'], autoRevive: true, systemdScope: false, prices: {}, budgets: { rooms: { r1: { usd: 20 } }, day: { tokens: 5_000_000 } }, resumeAfterLimit: {}, sandbox: { kinds: {}, rooms: {}, allowHosts: {}, denyRead: [] } });
  });

  it('resumeAfterLimit per kind: true for the defaults, or the prompt and the tries a day; a bad entry is one line', () => {
    const text = '{"resumeAfterLimit": {"claude": true, "codex": {"prompt": "go on", "perDay": 2}, "pi": {"prompt": "go"}, "gemini": false, "x": {"perDay": 0}}}';
    const { config, errors } = parseUserConfig(text, 'c.json');
    expect(config.resumeAfterLimit).toEqual({ claude: { prompt: 'continue', perDay: 3 }, codex: { prompt: 'go on', perDay: 2 }, pi: { prompt: 'go', perDay: 3 } });
    expect(errors).toEqual(['c.json: "resumeAfterLimit"."x" must be true, false or {"prompt": "<text>", "perDay": <1 or more>}; ignored']);
  });

  it('a file that is not JSON is the defaults and one line', () => {
    const { config, errors } = parseUserConfig('{"hosts": [', 'c.json');
    expect(config).toEqual(DEFAULT_CONFIG);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^c\.json: not JSON/);
    // A newline where a value should be: the message quotes it, and still is one line.
    const cut = parseUserConfig('{"autoRevive": tru\n', 'c.json').errors;
    expect(cut).toHaveLength(1);
    expect(cut[0]).not.toContain('\n');
  });

  it('a bad entry is one line and its default; the rest is kept', () => {
    const { config, errors } = parseUserConfig('{"hosts": ["ok", "-oProxyCommand=x", "a b", 3], "autoRevive": "yes", "colour": 1}', 'c.json');
    expect(config.hosts).toEqual(['ok']);
    expect(config.autoRevive).toBe(false);
    expect(errors).toHaveLength(5);
    expect(errors.join('\n')).toMatch(/unknown setting "colour"/);
    expect(errors.join('\n')).toMatch(/"autoRevive" must be true or false/);
  });

  it('an array or null at the top is refused whole', () => {
    expect(parseUserConfig('[]', 'c.json').errors[0]).toMatch(/expected an object/);
    expect(parseUserConfig('null', 'c.json').errors[0]).toMatch(/expected an object/);
  });

  it('host specs ssh could read as options are refused', () => {
    expect(isHostSpec('user@box')).toBe(true);
    expect(isHostSpec('-oFoo')).toBe(false);
    expect(isHostSpec('box\n')).toBe(false);
    expect(isHostSpec('user@')).toBe(false);
  });
});
