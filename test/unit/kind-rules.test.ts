/**
 * The kinds as data: the shipped rule files compile without an error, and a
 * user's file adds to or overrides a kind's patterns, defines a kind of its
 * own, and gets one clear line per bad entry while the rest still loads.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildKindRegistry, kindOf } from '../../src/core/agents/kind-rules.js';
import { activityFromScreen, activityFromTitle } from '../../src/core/agents/status-detectors.js';
import { SHIPPED } from '../helpers/kinds.js';

const shippedSources = () => [...SHIPPED.kinds.values()].flatMap((k) => k.ruleFiles).filter((f, i, a) => a.indexOf(f) === i);
const user = (doc: unknown, file = '/home/u/.config/agent-board/agents.json') => ({ file, text: typeof doc === 'string' ? doc : JSON.stringify(doc) });

function registry(doc: unknown) {
  const shipped = shippedSources().map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
  return buildKindRegistry(shipped, [user(doc)]);
}

describe('the shipped rules', () => {
  it('load every kind with no error, each pattern naming its file', () => {
    expect(SHIPPED.errors).toEqual([]);
    expect([...SHIPPED.kinds.keys()].sort()).toEqual(['claude', 'codex', 'demo', 'gemini', 'pi', 'shell']);
    for (const k of SHIPPED.kinds.values()) {
      for (const p of [...k.detectors.title, ...k.detectors.screen]) expect(p.file, p.name).toMatch(new RegExp(`src/core/agents/rules/${k.name}\\.json$`));
    }
    expect(kindOf(SHIPPED, 'claude')).toMatchObject({ programs: ['claude'], packages: ['@anthropic-ai/claude-code'], wiring: 'claude', enterDelayMs: 400 });
    expect(kindOf(SHIPPED, 'shell').detectors).toEqual({ title: [], screen: [] });
  });
});

describe("the user's rules file", () => {
  it('adds a pattern to a shipped kind and overrides one by name', () => {
    const reg = registry({
      kinds: {
        claude: {
          screen: [
            { name: 'my.claude.planMode', activity: 'waiting', where: { tail: 4 }, match: ['Would you like to proceed\\?'] },
            { name: 'claude.screen.forShortcuts', activity: 'idle', where: { tail: 4 }, match: ['^\\? for help\\b'] },
          ],
          enterDelayMs: 600,
        },
      },
    });
    expect(reg.errors).toEqual([]);
    const claude = kindOf(reg, 'claude');
    expect(claude.enterDelayMs).toBe(600);
    expect(activityFromScreen(claude.detectors, ['', '  Would you like to proceed?', '  ❯ 1. Yes'])).toBe('waiting');
    expect(activityFromScreen(claude.detectors, ['', '? for help · ← for agents'])).toBe('idle');
    expect(activityFromScreen(claude.detectors, ['', '? for shortcuts · ← for agents'])).toBeNull(); // overridden
    expect(claude.detectors.screen.find((p) => p.name === 'claude.screen.forShortcuts')!.file).toBe('/home/u/.config/agent-board/agents.json');
    expect(claude.ruleFiles.at(-1)).toBe('/home/u/.config/agent-board/agents.json');
    expect(claude.wiring).toBe('claude'); // the rest of the kind is untouched
  });

  it('disables a shipped pattern, or replaces them all', () => {
    const reg = registry({ kinds: { codex: { title: [{ name: 'codex.title.plain', disable: true }] }, pi: { replacePatterns: true, screen: [{ name: 'pi.mine', activity: 'busy', match: 'Thinking' }] } } });
    expect(reg.errors).toEqual([]);
    expect(activityFromTitle(kindOf(reg, 'codex').detectors, 'app')).toBeNull();
    expect(activityFromTitle(kindOf(reg, 'codex').detectors, '⠋ app')).toBe('busy');
    expect(kindOf(reg, 'pi').detectors.screen.map((p) => p.name)).toEqual(['pi.mine']);
  });

  it('defines a kind we do not ship: its program, its patterns, bytes below them', () => {
    const reg = registry({
      kinds: {
        aider: { programs: ['aider'], packages: ['aider-chat'], title: [], screen: [{ name: 'aider.prompt', activity: 'idle', where: { tail: 2 }, match: ['^> $|^>$'] }], settleMarkers: ['\u001b[2J'], enterDelayMs: 300 },
      },
    });
    expect(reg.errors).toEqual([]);
    expect(kindOf(reg, 'aider')).toMatchObject({ name: 'aider', command: 'aider', statusSources: ['screen', 'bytes'], enterDelayMs: 300, settleMarkers: ['\x1b[2J'], wiring: null, hookEvents: {} });
  });

  it('defines a wrapper by extending a kind: the same rules and wiring, its own program name', () => {
    const reg = registry({ kinds: { cc: { extends: 'claude', programs: ['cc-wrapper'] } } });
    expect(reg.errors).toEqual([]);
    const cc = kindOf(reg, 'cc');
    expect(cc).toMatchObject({ programs: ['cc-wrapper'], command: 'cc-wrapper', wiring: 'claude', statusSources: ['hook', 'title', 'screen'], enterDelayMs: 400 });
    expect(cc.detectors.screen.length).toBe(kindOf(reg, 'claude').detectors.screen.length);
  });

  it('a bad entry is one line naming the file and the entry; the rest loads', () => {
    const reg = registry({
      kinds: {
        claude: { screen: [{ name: 'bad.regex', activity: 'waiting', match: ['([unclosed'] }, { name: 'good.one', activity: 'waiting', match: 'Allow this\\?' }] },
        codex: { enterDelayMs: 5, title: [{ name: 'no.activity', match: 'x' }] },
        'Bad Name': {},
        gemini: 'not an object',
        pi: { extends: 'nothing', bogus: 1 },
        aider: { extends: 'nope' },
      },
    });
    const file = '/home/u/.config/agent-board/agents.json';
    expect(reg.errors).toEqual([
      `${file}: kind "claude": screen[0] (bad.regex) invalid regular expression: Invalid regular expression: /([unclosed/u: Unterminated character class (this pattern ignored)`,
      `${file}: kind "codex": "enterDelayMs" must be a whole number of ms from 150 to 10000 (ignored)`,
      `${file}: kind "codex": title[0] (no.activity) "activity" must be one of busy, idle, waiting (this pattern ignored)`,
      `${file}: kind "Bad Name": a kind's name is lower-case letters, digits, - and _`,
      `${file}: kind "gemini": must be an object`,
      `${file}: kind "pi": unknown field "bogus" (ignored)`,
      `${file}: kind "aider": "extends" names no known kind (nope)`,
    ]);
    expect(activityFromScreen(kindOf(reg, 'claude').detectors, ['Allow this?'])).toBe('waiting');
    expect(kindOf(reg, 'codex').enterDelayMs).toBe(250);
    expect(reg.kinds.has('aider')).toBe(false);
  });

  it('a screen pattern may let one row expression match any number of rows (`repeat`), and a bad index is refused', () => {
    const reg = registry({
      kinds: {
        aider: {
          programs: ['aider'],
          screen: [
            { name: 'aider.box', activity: 'idle', where: { tail: 10 }, match: ['^┌', '\\S', '.*', '^└'], repeat: 2 },
            { name: 'aider.bad', activity: 'idle', match: ['^a', '^b'], repeat: 2 },
          ],
        },
      },
    });
    expect(reg.errors).toEqual(['/home/u/.config/agent-board/agents.json: kind "aider": screen[1] (aider.bad) "repeat" must be the index of one of its "match" rows (this pattern ignored)']);
    const det = kindOf(reg, 'aider').detectors;
    expect(activityFromScreen(det, ['┌──', 'one', '└──'])).toBe('idle');
    expect(activityFromScreen(det, ['┌──', 'one', 'two', '', 'four', '└──'])).toBe('idle');
    expect(activityFromScreen(det, ['┌──', '', '└──'])).toBeNull();
  });

  it('a file that is not JSON, or not of the right shape, is one line and the shipped rules stand', () => {
    expect(registry('{ nope').errors).toEqual([expect.stringMatching(/^\/home\/u\/\.config\/agent-board\/agents\.json: not JSON: .* \(the whole file is ignored\)$/)]);
    expect(registry({ claude: {} }).errors).toEqual(['/home/u/.config/agent-board/agents.json: must be {"kinds": {"<name>": {...}}} (the whole file is ignored)']);
    expect(kindOf(registry('{ nope'), 'claude').detectors.screen.length).toBe(kindOf(SHIPPED, 'claude').detectors.screen.length);
  });
});
