/**
 * The real agent CLIs of the lane inside the sandbox (issue 32, docs/sandbox.md): every step of the
 * lane (test/agents/lane-suite.ts: a turn read from the kind's hooks with the mock's reply on its
 * screen, `send`, a chat wake, restart and revive resuming, a fork, `new -- <kind>`) with each
 * session started `--sandbox --network allowlist --allow-host 127.0.0.1:<mock port>`: its own
 * network namespace, the mock reached only through the runner's proxy. All four CLIs honour
 * HTTP(S)_PROXY (with the proxy's credentials in its URL) for their vendor's base URL: tried by
 * hand under the same bubblewrap argv, with `--network none` pi says `Connection error.` and the
 * mock gets nothing. So none needs `--network all` here.
 *
 * Two things differ from the plain lane on purpose:
 * - the lane's world (home, project, agent-board's home) is made under /var/tmp, not /tmp: the
 *   sandbox's /tmp is a private tmpfs, which would hide a home under /tmp whole, so the deny list
 *   (`~/.ssh`) and what a CLI writes into its home outside its state folder would go untried;
 * - the sessions get a TMPDIR outside /tmp, as a user's may be: read-only inside the sandbox,
 *   where Claude Code cannot even start (`EROFS ... mkdir '$TMPDIR/claude-0'`) unless the runner
 *   points TMPDIR at the private /tmp.
 * A machine that cannot sandbox (no bubblewrap, user namespaces refused) says NOT RUN loudly, as a
 * missing CLI does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { realScheduler } from '../../src/state/real-time.js';
import { sandboxPreflight } from '../../src/state/sandbox/sandbox-preflight.js';
import type { LaneKind } from './agent-homes.js';
import { until, type Lane } from './lane.js';
import { agentLane, type LaneOptions } from './lane-suite.js';

const KINDS: LaneKind[] = ['claude', 'codex', 'gemini', 'pi'];
/** Planted in the lane's home before the first `new`: the sandbox must hide it (the default deny list). */
const KEY = path.join('.ssh', 'id_ed25519');
const SECRET = 'sandbox-lane: a private key the agent must not read\n';
/** Planted in the project: seen through the program's own view of the filesystem, it proves we look at that view. */
const MARK = 'sandbox-lane-mark.txt';
/** Not under /tmp (see above); /var/tmp is there on every Linux, the only system this backend runs on. */
const BASE = '/var/tmp';

const preflight = await sandboxPreflight({ backend: 'bwrap', network: 'allowlist' }, process.env, realScheduler({ unref: true }));
const skip = preflight.ok ? undefined : preflight.line;

/** Every descendant of `pid` (through /proc/<pid>/task/<tid>/children), depth first. */
function descendants(pid: number): number[] {
  const out: number[] = [];
  const walk = (p: number) => {
    let tasks: string[] = [];
    try {
      tasks = fs.readdirSync(`/proc/${p}/task`);
    } catch {
      return; // gone meanwhile (a hook's process)
    }
    for (const t of tasks) {
      let kids: number[] = [];
      try {
        kids = fs.readFileSync(`/proc/${p}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
      } catch {
        continue;
      }
      for (const k of kids) (out.push(k), walk(k));
    }
  };
  walk(pid);
  return out;
}

const ns = (pid: number | 'self', which: 'mnt' | 'net'): string | null => {
  try {
    return fs.readlinkSync(`/proc/${pid}/ns/${which}`);
  } catch {
    return null;
  }
};

/** The session's processes that live in another mount namespace than ours: inside the sandbox (bwrap itself is outside). */
function inside(childPid: number): number[] {
  const ours = ns('self', 'mnt');
  return descendants(childPid).filter((p) => {
    const theirs = ns(p, 'mnt');
    return theirs !== null && theirs !== ours;
  });
}

const cmdline = (pid: number): string => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
};

function sandboxed(kind: LaneKind): LaneOptions {
  const root = process.getuid?.() === 0;
  return {
    label: '(sandboxed: --sandbox --network allowlist)',
    skip,
    base: BASE,
    // Gemini's hooks need a settings layer only root can give it (test/agents/gemini.test.ts); as another user its status comes from its title.
    ...(kind === 'gemini' && !root ? { sources: { busy: 'title', idle: 'title' }, forkIdUnknown: true } : {}),
    prepare(lane: Lane) {
      fs.mkdirSync(path.join(lane.home, '.ssh'), { mode: 0o700 });
      fs.writeFileSync(path.join(lane.home, KEY), SECRET, { mode: 0o600 });
      fs.writeFileSync(path.join(lane.project, MARK), 'the project\n');
      const tmp = path.join(lane.dir, 'tmp');
      fs.mkdirSync(tmp, { mode: 0o700 });
      lane.env.TMPDIR = tmp;
      // Claude Code asks before it runs a command; allowed here, its Bash tool runs the mock's command at once.
      if (kind === 'claude') {
        fs.mkdirSync(path.join(lane.home, '.claude'), { recursive: true, mode: 0o700 });
        fs.writeFileSync(path.join(lane.home, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash', 'mcp__agent-board__chat_send'] } }));
      }
    },
    newFlags: (lane: Lane) => ['--sandbox', '--network', 'allowlist', '--allow-host', new URL(lane.mock.url).host],
    async afterStart(lane: Lane, id: string) {
      const rec = lane.record(id)!;
      expect(rec.sandbox, 'host.json keeps what the session was started with').toMatchObject({ backend: 'bwrap', network: 'allowlist' });
      const pids = await waitInside(rec.childPid!);
      const views = pids.filter((p) => fs.existsSync(`/proc/${p}/root${path.join(lane.project, MARK)}`));
      // Through /proc/<pid>/root we see the filesystem as the program sees it: the project is there...
      expect(views.length, `the project seen from inside (pids ${pids.join(' ')})`).toBeGreaterThan(0);
      // ...and the key, readable outside, is not (nor any other file of ~/.ssh).
      expect(fs.readFileSync(path.join(lane.home, KEY), 'utf8')).toBe(SECRET);
      for (const p of views) {
        expect(fs.existsSync(`/proc/${p}/root${path.join(lane.home, KEY)}`), `${KEY} seen by pid ${p} (${cmdline(p).slice(0, 120)})`).toBe(false);
        // Its own network namespace: the host's loopback (the mock) only through the proxy.
        expect(ns(p, 'net'), `pid ${p} in its own network namespace`).not.toBe(ns('self', 'net'));
      }
      // Codex's own command sandbox is bubblewrap too and cannot be made inside ours (no nested user namespaces): it is turned off.
      if (kind === 'codex') expect(pids.map(cmdline).join('\n'), 'codex runs with --sandbox danger-full-access').toContain('danger-full-access');
    },
    lastly: {
      title: `every session of the lane ran sandboxed to the end, and the proxy never refused the mock${SHELL_KINDS.includes(kind) ? '; a command the model asks for runs and writes into the project' : ''}${kind === 'claude' ? '; its chat post names another session' : ''}`,
      async run(lane: Lane, id: string) {
        if (SHELL_KINDS.includes(kind)) await shellRuns(lane);
        if (kind === 'claude') await chatNamesOthers(lane);
        const sessions = fs.readdirSync(path.join(lane.abHome, 'sessions'));
        // x (restarted, revived), its fork xf and y (restarted): restart, revive and fork kept the setting.
        expect(sessions.length).toBeGreaterThanOrEqual(3);
        for (const sid of sessions) {
          const rec = lane.record(sid)!;
          expect(rec.sandbox, `${rec.name}'s setting`).toMatchObject({ backend: 'bwrap', network: 'allowlist' });
          if (rec.status === 'running') expect((await waitInside(rec.childPid!)).length, `${rec.name} runs inside`).toBeGreaterThan(0);
        }
        const rec = lane.record(id)!;
        const mock = new URL(lane.mock.url);
        const refused = rec.sandboxDenied ?? [];
        // What else the CLI tried (update checks, telemetry) is refused and kept for `explain`; never the mock.
        console.log(`[agent lane] ${kind} sandboxed: the proxy refused ${refused.map((d) => `${d.host}:${d.port} x${d.count}`).join(', ') || 'nothing'}`);
        expect(refused.filter((d) => d.host === mock.hostname && d.port === Number(mock.port))).toEqual([]);
      },
    },
  };
}

/**
 * The kinds whose mock can ask for a command: a prompt carrying `sandbox-shell-check` is answered with
 * a call of the CLI's shell tool (Claude Code's Bash, Codex's exec_command) that writes a file in the
 * project (test/fixtures/mocks/mock-anthropic.mjs, mock-openai.mjs). Codex runs the model's commands
 * in a bubblewrap sandbox of its own, which cannot be made inside ours (`bwrap: Creating new namespace
 * failed: ... (ENOSPC)`, no nested user namespaces): the runner turns it off (`--sandbox
 * danger-full-access`), ours being the boundary.
 */
const SHELL_KINDS: LaneKind[] = ['claude', 'codex'];

async function shellRuns(lane: Lane): Promise<void> {
  const proof = path.join(lane.project, 'sandbox-shell-proof.txt');
  const t = Date.now();
  const r = await lane.ab(['send', 'x', 'Run it: sandbox-shell-check']);
  expect(r.stdout, r.stderr).toMatch(/^applied: typed /m);
  // What the command printed, as Codex sent it back to the mock (its error when it could not run).
  const output = () => {
    const mark = lane.kind === 'codex' ? 'function_call_output' : 'tool_result';
    const back = lane.mock.entries().filter((e) => e.ev === 'request' && e.t >= t && e.body?.includes(mark)).at(-1);
    const at = back ? back.body!.lastIndexOf(mark) : -1;
    return back ? back.body!.slice(at, at + 400) : '(no command output reached the mock)';
  };
  const context = async () => `--- the command's output: ${output()}\n--- screen of x:\n${await lane.peek('x')}`;
  const text = await until('the command the model asked for to write into the project', () => fs.existsSync(proof) && fs.readFileSync(proof, 'utf8'), 30_000, context);
  expect(text).toMatch(/^ran inside: \d+\n$/);
  await until('the answer after the command', () => lane.mock.entries().some((e) => e.ev === 'end' && e.t > t), 30_000, context);
}

/**
 * An agent wakes another by naming it in the room's chat. Claude Code's mock answers a prompt carrying
 * `sandbox-chat-check` with a call of agent-board's MCP tool chat_send naming `xf`, the fork, in the
 * same room: from inside the sandbox, where xf's own folder is hidden, the post must still carry the
 * mention (what wakes xf).
 */
async function chatNamesOthers(lane: Lane): Promise<void> {
  const chat = path.join(lane.abHome, 'rooms', `lane-${lane.kind}`, 'chat.jsonl');
  const posts = () => (fs.existsSync(chat) ? fs.readFileSync(chat, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { from: string; text: string; mentions?: string[] }) : []);
  const r = await lane.ab(['send', 'x', 'Post it: sandbox-chat-check']);
  expect(r.stdout, r.stderr).toMatch(/^applied: typed /m);
  const post = await until('x\'s post through its MCP tool', () => posts().find((p) => p.from === 'x' && p.text.includes('the chat check ran')), 30_000, async () => `--- screen of x:\n${await lane.peek('x')}`);
  expect(post.mentions, 'the mention of a session the sandboxed agent cannot see').toEqual(['xf']);
}

/** The session's processes inside the sandbox, once there is one (bwrap makes it a moment after the spawn). */
async function waitInside(childPid: number): Promise<number[]> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const pids = inside(childPid);
    if (pids.length > 0 || Date.now() > deadline) return pids;
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const kind of KINDS) agentLane(kind, sandboxed(kind));
