/**
 * `agent-board send` end to end: what it prints and exits with, and what the
 * program really receives (text, bracketed paste, the Enter and its delay per
 * agent kind, when-idle), checked on the recorded stdin.
 */
import { describe, expect, it } from 'vitest';
import { count, journalLines, received, recorderArgs, recorderDir, recorderReady, useControlHome } from '../helpers/control.js';
import { cli, cliAsync, newSession, waitFor } from '../helpers/home.js';

let home: string;
let dir: string;
const open = useControlHome((h, d) => ((home = h), (dir = d)));

/** What send prints: the status first, what was typed where, and the command id's start. */
const LINE = /^(applied|accepted|unconfirmed|not typed): [^\n]* (?:into|in) [^\n]*; command ([0-9a-f]{8})…\n$/;
/** `send --json`'s object. */
const json = (stdout: string) => JSON.parse(stdout) as { status: string; commandId: string; session: string; name: string; message?: string };

async function start(args: string[]): Promise<string> {
  const id = newSession(home, args);
  await recorderReady(dir);
  return id;
}

/**
 * How long the runner took from accepting the prompt to pressing its Enter, by its own journal's
 * times: the text goes in after the accept, the Enter the kind's delay after the text, so this is
 * at least that delay. Taken from the runner's clock, not the program's reads: a program left
 * waiting by a busy machine reads the text late and the Enter at once after it, which says nothing
 * of when they were written.
 */
function enterAfterMs(id: string, commandId: string): number {
  const at = (kind: string) => Date.parse(journalLines(home, id).find((l) => l.kind === kind && l.commandId === commandId)!.at as string);
  return at('applied') - at('accepted');
}

/**
 * What the program has read, once it has read as many bytes as `want`: `applied` means the runner
 * wrote them to the PTY; the program reads them when a busy machine gives it its turn.
 */
async function readByProgram(d: string, want: string): Promise<string> {
  await waitFor(`the program to read ${JSON.stringify(want)}`, () => received(d).length >= want.length);
  return received(d);
}

describe('agent-board send', () => {
  it('types the prompt, presses Enter after the agent kind’s delay, says what it typed where and exits 0', async () => {
    const id = await start(['--name', 'shelly', ...recorderArgs(dir)]);
    const r = await cliAsync(home, ['send', 'shelly', 'hello', 'there']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^applied: typed "hello there" \(\+ Enter\) into shelly; command [0-9a-f]{8}…\n$/);
    expect(await readByProgram(dir, 'hello there\r')).toBe('hello there\r');
    const journal = journalLines(home, id);
    const commandId = journal[0]!.commandId as string;
    expect(enterAfterMs(id, commandId)).toBeGreaterThanOrEqual(140); // shell kind: 150 ms (a timer may end a ms early by the wall clock)
    expect(r.stdout).toContain(`command ${commandId.slice(0, 8)}…`);
    expect(journal.map((l) => [l.kind, l.commandId])).toEqual([['accepted', commandId], ['applied', commandId]]);

    // The same id again: asked first, answered applied, not typed twice; --json has the whole id for a script.
    const again = await cliAsync(home, ['send', id, '--command-id', commandId, '--json', 'hello there']);
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(json(again.stdout)).toEqual({ status: 'applied', commandId, session: id, name: 'shelly' });
    expect(count(received(dir), 'hello there')).toBe(1);
    // Usage errors say so (exit 2) and send nothing.
    expect((await cliAsync(home, ['send', id, '--wait', 'typed', 'x'])).code).toBe(2);
    expect((await cliAsync(home, ['send', id, '--command-id', 'not ok!', 'x'])).code).toBe(2);
    expect((await cliAsync(home, ['send', id])).code).toBe(2);
    expect(received(dir)).toBe('hello there\r');
  });

  it('an agent kind with a longer Enter delay waits longer (claude: 400 ms); --no-enter types no Enter', async () => {
    const id = await start(['--agent', 'claude', '--name', 'cc', '--command', process.execPath, '--', ...recorderArgs(dir).slice(2)]);
    expect((await cliAsync(home, ['send', 'cc', 'fix the bug'])).code).toBe(0);
    expect(await readByProgram(dir, 'fix the bug\r')).toBe('fix the bug\r');
    expect(enterAfterMs(id, journalLines(home, id)[0]!.commandId as string)).toBeGreaterThanOrEqual(390); // claude: 400 ms
    const r = await cliAsync(home, ['send', 'cc', '--no-enter', 'draft']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^applied: typed "draft" into cc; command [0-9a-f]{8}…\n$/);
    expect(await readByProgram(dir, 'fix the bug\rdraft')).toBe('fix the bug\rdraft');
  });

  it('multi-line text from stdin goes in as one bracketed paste when the program asked for it, as typed otherwise', async () => {
    const pasteDir = recorderDir(home, 'paste');
    const paste = newSession(home, ['--name', 'paste', '--', process.execPath, recorderArgs(dir)[2]!, pasteDir, '--paste']);
    const plain = newSession(home, ['--name', 'plain', ...recorderArgs(dir)]);
    await recorderReady(pasteDir);
    await recorderReady(dir);
    // The program's mode 2004 has reached the runner's screen model before we send.
    const c = await open(paste);
    c.raw.send({ type: 'subscribe_terminal' });
    const frame = await c.waitMsg<{ type: 'snapshot_screen'; data: string }>((m) => m.type === 'snapshot_screen');
    expect(frame.data).toContain('\x1b[?2004h');

    const text = 'first line\nsecond line\n';
    expect(cli(home, ['send', paste, '-'], { input: text }).code).toBe(0);
    expect(cli(home, ['send', plain, '-'], { input: text }).code).toBe(0);
    // The trailing newline of the input is not part of the prompt; Enter comes on its own.
    expect(await readByProgram(pasteDir, '\x1b[200~first line\nsecond line\x1b[201~\r')).toBe('\x1b[200~first line\nsecond line\x1b[201~\r');
    expect(await readByProgram(dir, 'first line\nsecond line\r')).toBe('first line\nsecond line\r');
  });

  it('--when-idle queues the prompt in the session until the program has been quiet; --wait accepted returns at once', async () => {
    const id = await start(['--name', 'busy', ...recorderArgs(dir, '--tick', '100')]);
    const queued = await cliAsync(home, ['send', 'busy', '--when-idle', '--quiet', '1500ms', '--wait', 'accepted', '<queued>']);
    expect(queued.code).toBe(0);
    expect(queued.stdout).toMatch(/^accepted: queued "<queued>" \(\+ Enter\) in busy until quiet; command [0-9a-f]{8}…\n$/);
    const queuedId = journalLines(home, id)[0]!.commandId as string;
    expect(queued.stdout).toContain(`command ${queuedId.slice(0, 8)}…`);
    // Waiting for applied while the program keeps printing: not confirmed in time, exit 8, and still queued.
    const waited = await cliAsync(home, ['send', 'busy', '--when-idle', '--quiet', '1500ms', '--timeout', '1s', '--json', '<waited>']);
    expect(waited.code).toBe(8);
    const { status: waitedStatus, commandId: waitedId } = json(waited.stdout);
    expect(waitedStatus).toBe('unconfirmed');
    expect(waited.stderr).toMatch(/--command-id/);
    expect(received(dir)).toBe('');
    const c = await open(id);
    expect((await c.reconcile()).unresolved).toEqual([
      { commandId: queuedId, status: 'accepted' },
      { commandId: waitedId, status: 'accepted' },
    ]);

    c.raw.send({ type: 'input', data: '\x10' }); // the program goes quiet
    await waitFor('both typed', () => received(dir).endsWith('<waited>\r'), 10_000);
    expect(received(dir)).toBe('\x10<queued>\r<waited>\r');
    // Retried with its id once typed: applied, not typed again.
    const retry = await cliAsync(home, ['send', 'busy', '--command-id', waitedId, '<waited>']);
    expect(retry).toMatchObject({ code: 0, stdout: expect.stringMatching(new RegExp(`^applied: typed "<waited>" \\(\\+ Enter\\) into busy; command ${waitedId.slice(0, 8)}…\n$`)) });
    expect(count(received(dir), '<waited>')).toBe(1);
  });

  it('exit codes: 3 for an unknown session (nothing printed on stdout), 5 for an exited one', async () => {
    const unknown = await cliAsync(home, ['send', 'nosuch', 'hi']);
    expect(unknown).toMatchObject({ code: 3, stdout: '' });
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    const id = newSession(home, ['--', 'sh', '-c', 'exit 0']);
    await waitFor('exited', () => JSON.parse(cli(home, ['ls', '--json']).stdout)[0].status === 'exited');
    // Nothing sent yet and the session has exited: said at once, not after the 30 s default timeout
    // (cliAsync ends a command after 20 s: one that waited for that timeout would not exit 5).
    const exited = await cliAsync(home, ['send', id, 'hi']);
    expect(exited.code).toBe(5);
    expect(exited.stdout).toMatch(LINE);
    expect(exited.stdout).toMatch(/^not typed: "hi" \(\+ Enter\) into /);
    expect(exited.stderr).toMatch(/exited/);
  });
});
