/**
 * An agent kind's wiring end to end: the hooks agent-board puts into a
 * Claude-like program's --settings report to the runner through
 * `agent-board hook`, the layered status follows them, the session id from
 * SessionStart is kept, and a restart resumes the same conversation.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, destroyHome, makeHome, ROOT, waitFor } from '../helpers/home.js';

const FAKE = path.join(ROOT, 'test', 'fixtures', 'programs', 'fake-claude.mjs');
let home: string;
let log: string;
beforeEach(() => {
  home = makeHome('ab-hooks-');
  log = path.join(home, 'argv.jsonl');
});
afterEach(() => destroyHome(home));

const record = (id: string) => (JSON.parse(cli(home, ['ls', '--json']).stdout) as Array<Record<string, unknown>>).find((s) => s.id === id)!;
const starts = () => fs.readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as string[]);

describe('agent kind wiring', () => {
  it('claude: hooks drive the status, the session id is captured, restart resumes it', async () => {
    // Its conversation is saved under this $HOME (the runner inherits it), never the user's.
    const env = { FAKE_CLAUDE_LOG: log, FAKE_CLAUDE_TURN_MS: '1500', HOME: home };
    const r = cli(home, ['new', '--agent', 'claude', '--name', 'cc', '--command', process.execPath, '--', FAKE, '--model', 'opus'], { env });
    expect(r.stderr).toBe('');
    const id = r.stdout.trim();
    // The user's extra arguments come first, then the wiring: --settings with our hooks, --mcp-config with the chat tools.
    const argv = (await waitFor('it started', () => fs.existsSync(log) && starts()[0]))!;
    expect(argv.slice(0, 2)).toEqual(['--model', 'opus']);
    const settings = JSON.parse(argv[argv.indexOf('--settings') + 1]!);
    expect(settings.hooks.Stop[0].hooks[0].command).toBe('agent-board hook claude Stop');
    expect(JSON.parse(argv[argv.indexOf('--mcp-config') + 1]!).mcpServers['agent-board']).toEqual({ command: 'agent-board', args: ['mcp'] });

    // An id of ours from the start (--session-id), which its SessionStart hook reports back.
    const sid = record(id).resumeId as string;
    expect(sid).toMatch(/^[0-9a-f-]{36}$/);
    expect(argv[argv.indexOf('--session-id') + 1]).toBe(sid);
    await waitFor('idle from its title', () => record(id).activity === 'idle');

    expect(cli(home, ['send', 'cc', 'fix the bug']).code).toBe(0);
    await waitFor('busy by its hook', () => record(id).activity === 'busy' && record(id).activitySource === 'hook');
    await waitFor('idle by its Stop hook', () => record(id).activity === 'idle' && record(id).activitySource === 'hook', 10_000);

    expect(cli(home, ['restart', 'cc'], { env }).code).toBe(0);
    await waitFor('a second start', () => starts().length === 2);
    const again = starts()[1]!;
    expect(again.slice(0, 2)).toEqual(['--model', 'opus']);
    expect(again[again.indexOf('--resume') + 1]).toBe(sid);
    expect(record(id).name).toBe('cc');
  });

  it('the id printed on exit (`claude --resume <uuid>`) is captured when no hook gave one', async () => {
    const env = { FAKE_CLAUDE_LOG: log };
    // A program that ignores the hooks it is given: only its exit line names the conversation.
    const noHooks = path.join(home, 'nohooks.mjs');
    fs.writeFileSync(noHooks, `process.stdout.write('working\\r\\n'); const bye = () => { process.stdout.write('\\r\\nclaude --resume 0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9\\r\\n'); setTimeout(() => process.exit(0), 50); }; process.on('SIGTERM', bye); process.on('SIGHUP', bye); setInterval(() => {}, 1000);`);
    const id = cli(home, ['new', '--agent', 'claude', '--name', 'plain', '--command', process.execPath, '--', noHooks], { env }).stdout.trim();
    await waitFor('running', () => record(id).status === 'running');
    expect(cli(home, ['kill', 'plain']).code).toBe(0);
    await waitFor('captured', () => record(id).resumeId === '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9');
  });

  it('an unknown agent kind is a usage error that lists the kinds', () => {
    const r = cli(home, ['new', '--agent', 'gpt5']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/shell, claude, codex, gemini, pi/);
  });
});
