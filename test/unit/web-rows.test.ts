/** The page's rows (src/core/web/web-rows.ts): what the board's row says, the dialog of a waiting session, a device's mutes. */
import { describe, expect, it } from 'vitest';
import type { DialogText } from '../../src/core/agents/dialog-text.js';
import { markMuted, webRows, type RowSession } from '../../src/core/web/web-rows.js';

const base: RowSession = {
  id: 'a1',
  name: 'api',
  agent: 'claude',
  command: 'claude',
  args: [],
  cwd: '/tmp',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  heartbeatAt: '2026-01-01T00:00:00.000Z',
  lastOutputAt: '2026-01-01T00:00:05.000Z',
  previewLine: '  Done: 3 files changed  ',
  runnerPid: 1,
  childPid: 2,
  generation: 'g',
  status: 'running',
  activity: 'idle',
  cols: 80,
  rows: 24,
  scrollback: 1000,
  exitCode: null,
  exitSignal: null,
};
const question: DialogText = { question: 'Allow edit?', options: [{ number: 1, label: 'Yes', selected: true }, { number: 2, label: 'No', selected: false }] };
const dialogs = (id: string) => (id === 'a1' ? question : null);

describe('webRows', () => {
  it("says what the board's row says: state, kind, last line, time of output, room", () => {
    const [r] = webRows([base], dialogs);
    expect(r).toEqual({
      id: 'a1',
      name: 'api',
      kind: 'claude',
      state: 'idle',
      stateText: 'idle',
      lastLine: 'Done: 3 files changed',
      lastOutputAt: '2026-01-01T00:00:05.000Z',
      worktree: null,
      room: 'default',
      dialog: null, // not waiting: a question read off its screen is not offered
      muted: false,
    });
  });

  it('a sandboxed session says so in a few words (the page marks it and titles the mark); others carry nothing', () => {
    const [boxed, plain] = webRows([{ ...base, sandbox: { backend: 'bwrap', network: 'allowlist' } }, base], dialogs);
    expect(boxed!.sandbox).toBe('bwrap, network allowlist');
    expect(plain).not.toHaveProperty('sandbox');
  });

  it('a waiting session carries its dialog; the agent in a shell and a worktree show as on the board', () => {
    const s: RowSession = {
      ...base,
      agent: 'shell',
      foregroundAgent: 'codex',
      activity: 'waiting',
      room: 'team',
      worktree: { repo: '/r', path: '/r.worktrees/agent-api', branch: 'agent/api', base: 'main', baseCommit: 'abc', createdBranch: true },
      worktreeStats: { added: 12, removed: 3, files: 2, ahead: 1, behind: 0, uncommitted: 1, at: '2026-01-01T00:00:00.000Z' },
    };
    const [r] = webRows([s], dialogs);
    expect(r).toMatchObject({ kind: 'shell › codex', state: 'waiting', room: 'team', dialog: question, worktree: '⎇ agent/api +12 -3 2 files ↑1 ↓0 ✎1' });
  });

  it('an exited, a killed and a disk-full session say so in full; a remote row names its host, and an unreachable one says no link', () => {
    const rows = webRows(
      [
        { ...base, id: 'x', status: 'exited', exitCode: 3 },
        { ...base, id: 'k', status: 'exited', exitCode: null, exitSignal: 'SIGTERM', killed: 'SIGTERM' },
        { ...base, id: 'f', cannotWrite: 'ENOSPC' },
        { ...base, id: 'box/r', host: 'box', stale: true, previewLine: undefined, lastOutputAt: null },
      ],
      dialogs,
    );
    expect(rows.map((r) => [r.id, r.state, r.stateText])).toEqual([
      ['x', 'exited', 'exited 3'],
      ['k', 'exited', 'killed'],
      ['f', 'idle', 'idle · disk full'],
      ['box/r', 'idle', 'no link'],
    ]);
    expect(rows[3]).toMatchObject({ host: 'box', stale: true, lastLine: '', lastOutputAt: null });
    expect(rows[0]).not.toHaveProperty('host');
  });
});

describe('markMuted', () => {
  it("marks one device's muted rows on a copy, and hands back the same array when none is", () => {
    const rows = webRows([base, { ...base, id: 'b2' }], dialogs);
    expect(markMuted(rows, () => false)).toBe(rows);
    const marked = markMuted(rows, (id) => id === 'b2');
    expect(marked.map((r) => r.muted)).toEqual([false, true]);
    expect(rows.map((r) => r.muted)).toEqual([false, false]);
    expect(marked[0]).toBe(rows[0]);
  });

  it('a limited row carries its reset, for the page to count down; another row has none', () => {
    const limited = { resetAt: '2026-01-01T03:00:00.000Z', line: 'limit reached', since: '2026-01-01T00:00:00.000Z' };
    const [r, other] = webRows([{ ...base, limited }, { ...base, id: 'b2' }], () => null);
    expect(r).toMatchObject({ state: 'limited', stateText: 'limited', resetAt: '2026-01-01T03:00:00.000Z' });
    expect(other!.state).toBe('idle');
    expect('resetAt' in other!).toBe(false);
  });
});

