import { afterEach, describe, expect, it } from 'vitest';
import './no-ci.js'; // before anything loads Ink
import { UserError } from '../../src/state/errors.js';
import { FakeActions, FakeFeed, session } from './fakes.js';
import { eventually, KEY } from './harness.js';
import { mountBoard, type Mounted } from './mount.js';

let m: Mounted | null = null;
afterEach(async () => {
  await m?.unmount();
  m = null;
});

const screenText = () => m!.out.text();
const waitFor = (check: () => void) => eventually(m!.out, check);

describe('the new-session form', () => {
  it('n opens it on the kind; the fields and what it will run show; typed fields go to BoardActions.create; the new session gets selected', async () => {
    const a = session({ name: 'alpha' });
    const feed = new FakeFeed([a]);
    const actions = new FakeActions();
    m = mountBoard(feed, { actions });
    await waitFor(() => expect(screenText()).toContain('alpha'));
    m.stdin.press('n');
    await waitFor(() => expect(screenText()).toContain('New session'));
    expect(screenText()).toMatch(/› kind +‹ shell › {2}a command line/);
    expect(screenText()).toMatch(/name +bash-1/); // the name it will get, until one is typed
    expect(screenText()).toMatch(/command +\/bin\/bash/);
    expect(screenText()).toMatch(/folder +\/home\/me/);
    expect(screenText()).toMatch(/room +default/);
    expect(screenText()).toMatch(/worktree +\[ \] in a new worktree of \/home\/me/);
    expect(screenText()).toMatch(/runs +\/bin\/bash/);
    expect(screenText()).toMatch(/same as +agent-board new --name bash-1/);
    expect(screenText()).toMatch(/Enter save {2}Esc cancel {2}Tab next field {2}←→ choose/);
    // The kind by its first letter; an agent's own program, so the command field is its arguments.
    m.stdin.press('c');
    await waitFor(() => expect(screenText()).toMatch(/› kind +‹ claude › {2}claude installed/));
    m.stdin.press('c');
    await waitFor(() => expect(screenText()).toMatch(/‹ codex › {2}codex not installed/));
    await m.stdin.type(KEY.left);
    await waitFor(() => expect(screenText()).toMatch(/‹ claude ›/));
    // Letters that are commands on the list are text here.
    await m.stdin.type(KEY.tab, 'api-qx', KEY.tab, "--model 'big one'", KEY.tab);
    await waitFor(() => expect(screenText()).toMatch(/arguments +--model 'big one'/));
    await m.stdin.type(KEY.backspace, KEY.backspace);
    await waitFor(() => expect(screenText()).toMatch(/› folder +\/home\/ +│/));
    m.stdin.press('work');
    await m.stdin.type(KEY.tab, '\x15', 'team', KEY.tab, ' ');
    await waitFor(() => expect(screenText()).toMatch(/› worktree +\[x\] in a new worktree/));
    await waitFor(() => expect(screenText()).toMatch(/branch +agent\/api-qx/));
    expect(screenText()).toMatch(/in +a new worktree on agent\/api-qx, room team, as api-qx/);
    actions.createResult = async (input) => {
      const rec = session({ id: 'newid000', name: input.name! });
      feed.setSessions([a, rec]);
      return rec;
    };
    m.stdin.press(KEY.enter);
    await waitFor(() => expect(actions.calls).toHaveLength(1));
    expect(actions.calls[0]).toEqual({ op: 'create', input: { kind: 'claude', name: 'api-qx', command: "--model 'big one'", cwd: '/home/work', room: 'team', worktree: true, branch: undefined } });
    await waitFor(() => expect(screenText()).toMatch(/› ● api-qx[^]*started api-qx/));
    expect(screenText()).not.toContain('New session');
  });

  it('the branch follows the name until it is edited; then it goes to create as typed', async () => {
    const actions = new FakeActions();
    m = mountBoard(new FakeFeed([session()]), { actions });
    m.stdin.press('n');
    await waitFor(() => expect(screenText()).toContain('New session'));
    await m.stdin.type(KEY.tab, 'web', KEY.tab, KEY.tab, KEY.tab, KEY.tab, 'y', KEY.tab);
    await waitFor(() => expect(screenText()).toMatch(/› branch +agent\/web/));
    await m.stdin.type(KEY.up, KEY.up, KEY.up, KEY.up, KEY.up, '2');
    await waitFor(() => expect(screenText()).toMatch(/branch +agent\/web2/));
    await m.stdin.type(KEY.down, KEY.down, KEY.down, KEY.down, KEY.down, '-ui');
    await waitFor(() => expect(screenText()).toMatch(/› branch +agent\/web2-ui/));
    m.stdin.press(KEY.enter);
    await waitFor(() => expect(actions.calls).toHaveLength(1));
    expect(actions.calls[0]).toMatchObject({ op: 'create', input: { name: 'web2', worktree: true, branch: 'agent/web2-ui' } });
  });

  it("the sandbox: as config.json says, on or off with ←→ or Space; what it comes to shows; create gets it; a refusal stays in the form", async () => {
    const actions = new FakeActions();
    m = mountBoard(new FakeFeed([session()]), { actions });
    m.stdin.press('n');
    await waitFor(() => expect(screenText()).toContain('New session'));
    expect(screenText()).toMatch(/sandbox +‹ as config\.json says › {2}not sandboxed/);
    await m.stdin.type(KEY.up); // from the kind, round to the last field
    await waitFor(() => expect(screenText()).toMatch(/› sandbox +‹ as config\.json says ›/));
    m.stdin.press(' ');
    await waitFor(() => expect(screenText()).toMatch(/› sandbox +‹ on › {2}▣ sandboxed: bwrap, network allowlist/));
    await m.stdin.type(KEY.right);
    await waitFor(() => expect(screenText()).toMatch(/› sandbox +‹ off › {2}not sandboxed/));
    await m.stdin.type(KEY.left);
    await waitFor(() => expect(screenText()).toMatch(/› sandbox +‹ on ›/));
    actions.createResult = () => Promise.reject(new UserError('cannot sandbox: bubblewrap (bwrap) is not installed (apt-get install bubblewrap, dnf install bubblewrap)', 17));
    m.stdin.press(KEY.enter);
    await waitFor(() => expect(actions.calls).toHaveLength(1));
    expect(actions.calls[0]).toMatchObject({ op: 'create', input: { sandbox: 'on' } });
    await waitFor(() => expect(screenText()).toContain('cannot sandbox: bubblewrap (bwrap) is not installed'));
    expect(screenText()).toContain('New session');
  });

  it('what stops it is one red line in the form, before anything starts; a failure to start stays in the form too; Esc closes it', async () => {
    const actions = new FakeActions();
    actions.planResult = (input) => ({ kind: 'shell', name: 'x-1', branch: null, runs: input.command, line: 'agent-board new', problem: input.command.startsWith('nope') ? 'command not found: nope' : null, repo: null, sandbox: null });
    actions.createResult = async () => {
      throw new UserError('branch agent/x-1 exists already: pass --reuse-branch to work on it, or name another with --worktree BRANCH');
    };
    m = mountBoard(new FakeFeed([]), { actions });
    await waitFor(() => expect(screenText()).toContain('No sessions yet.'));
    m.stdin.press('n');
    await waitFor(() => expect(screenText()).toContain('New session'));
    expect(screenText()).toMatch(/worktree +— \(not in a git repository\)/);
    await m.stdin.type(KEY.tab, KEY.tab, '\x15', 'nope');
    await waitFor(() => expect(screenText()).toContain('command not found: nope'));
    m.stdin.press(KEY.enter);
    await new Promise((r) => setTimeout(r, 100));
    expect(actions.calls).toEqual([]);
    await m.stdin.type('\x15', 'sh');
    await waitFor(() => expect(screenText()).not.toContain('command not found'));
    m.stdin.press(KEY.enter);
    await waitFor(() => expect(screenText()).toContain('branch agent/x-1 exists already'));
    expect(screenText()).toContain('New session');
    m.stdin.press(KEY.esc);
    await waitFor(() => expect(screenText()).toContain('No sessions yet.'));
    expect(actions.calls).toHaveLength(1);
  });

  it('an unclosed quote is caught before anything starts', async () => {
    const actions = new FakeActions();
    actions.planResult = (input) => ({ kind: 'shell', name: 'x', branch: null, runs: '', line: '', problem: input.command.includes('"') ? 'the command has an unclosed "' : null, repo: null, sandbox: null });
    m = mountBoard(new FakeFeed([session()]), { actions });
    m.stdin.press('n');
    await waitFor(() => expect(screenText()).toContain('New session'));
    await m.stdin.type(KEY.down, KEY.down, '\x15', 'echo "hi', KEY.enter);
    await waitFor(() => expect(screenText()).toContain('the command has an unclosed "'));
    expect(actions.calls).toEqual([]);
  });
});

describe('kill, remove, rename', () => {
  it('x asks first; n keeps the session, y kills it and says how it ended', async () => {
    const a = session({ name: 'alpha' });
    const actions = new FakeActions();
    m = mountBoard(new FakeFeed([a]), { actions });
    await waitFor(() => expect(screenText()).toContain('alpha'));
    m.stdin.press('x');
    await waitFor(() => expect(screenText()).toContain('Kill alpha?'));
    expect(screenText()).toMatch(/y kill {3}n keep it/);
    m.stdin.press('n');
    await waitFor(() => expect(screenText()).not.toContain('Kill alpha?'));
    expect(actions.calls).toEqual([]);
    m.stdin.press('x');
    await waitFor(() => expect(screenText()).toContain('Kill alpha?'));
    await m.stdin.type('q' /* not an answer: nothing happens */, 'y');
    await waitFor(() => expect(screenText()).toContain('alpha ended (killed by SIGTERM)'));
    expect(actions.calls).toEqual([{ op: 'kill', id: a.id }]);
    expect(m.left).toEqual([]); // the q did not quit
  });

  it('d removes an exited session, and refuses a running one', async () => {
    const a = session({ name: 'alpha' });
    const b = session({ name: 'beta', status: 'exited', exitCode: 0 });
    const actions = new FakeActions();
    m = mountBoard(new FakeFeed([a, b]), { actions });
    await waitFor(() => expect(screenText()).toContain('beta'));
    m.stdin.press('d');
    await waitFor(() => expect(screenText()).toContain('alpha is still running; x kills it first'));
    m.stdin.press('jd'); // typed faster than the board reads: two keys
    await waitFor(() => expect(screenText()).toContain('removed beta'));
    expect(actions.calls).toEqual([{ op: 'remove', id: b.id }]);
  });

  it("d on a worktree session says what became of its worktree (kept with its work, never discarded from the board)", async () => {
    const b = session({ name: 'beta', status: 'exited', exitCode: 0 });
    const actions = new FakeActions();
    actions.removeResult = async () => 'kept agent/beta: 2 uncommitted';
    m = mountBoard(new FakeFeed([b]), { actions });
    await waitFor(() => expect(screenText()).toContain('beta'));
    m.stdin.press('d');
    await waitFor(() => expect(screenText()).toContain('removed beta; kept agent/beta: 2 uncommitted'));
  });

  it('r renames; the error of a taken name shows in the form', async () => {
    const a = session({ name: 'alpha' });
    const actions = new FakeActions();
    actions.renameResult = async () => {
      throw new UserError('a session named beta already exists');
    };
    m = mountBoard(new FakeFeed([a]), { actions });
    await waitFor(() => expect(screenText()).toContain('alpha'));
    m.stdin.press('r');
    await waitFor(() => expect(screenText()).toContain('Rename alpha'));
    await m.stdin.type('\x15', 'beta', KEY.enter);
    await waitFor(() => expect(screenText()).toContain('a session named beta already exists'));
    actions.renameResult = async () => undefined;
    await m.stdin.type(...Array(4).fill(KEY.backspace), 'gamma', KEY.enter);
    await waitFor(() => expect(screenText()).toContain('renamed alpha to gamma'));
    expect(actions.calls.map((c) => (c.op === 'rename' ? c.name : c.op))).toEqual(['beta', 'gamma']);
  });

  it('Enter on an exited or lost session says so instead of attaching', async () => {
    const b = session({ name: 'beta', status: 'exited', exitCode: 4 });
    const c = session({ name: 'ghost', status: 'lost' });
    m = mountBoard(new FakeFeed([b, c]));
    await waitFor(() => expect(screenText()).toContain('ghost'));
    m.stdin.press(KEY.enter);
    await waitFor(() => expect(screenText()).toContain('beta exited with code 4; its last screen is in the preview'));
    await m.stdin.type('j', KEY.right);
    await waitFor(() => expect(screenText()).toContain('ghost is lost: its runner is gone; R revives it, d removes it'));
    expect(m.left).toEqual([]);
  });

  it('Enter on a running session leaves the board to attach to it', async () => {
    const a = session({ name: 'alpha' });
    const b = session({ name: 'beta' });
    m = mountBoard(new FakeFeed([a, b]));
    await waitFor(() => expect(screenText()).toContain('beta'));
    m.stdin.press(KEY.down + KEY.enter); // in one read: Enter must see the move
    await waitFor(() => expect(m!.left).toHaveLength(1));
    expect(m.left[0]!.req).toEqual({ kind: 'attach', id: b.id });
    expect(m.left[0]!.state.selectedId).toBe(b.id);
  });
});
