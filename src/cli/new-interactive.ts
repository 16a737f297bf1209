/**
 * `agent-board new --interactive`: the board's new-session form as questions on the terminal,
 * with the same defaults and the same plan (src/client/session/new-session.ts): the kind (which agent
 * CLIs are installed), the command or the agent's arguments, the name, the folder, the room, and
 * a new worktree with its branch when the folder is in a git repository, whether it is sandboxed
 * and its network; then what it will run
 * and the same `agent-board new` line, and a confirmation. A problem is said and its question
 * asked again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline/promises';
import { checkRoomName } from '../core/chat/chat.js';
import { checkSessionName } from '../core/session-ref.js';
import type { KindRegistry } from '../core/agents/kind-rules.js';
import { branchForSession } from '../core/worktree/worktree.js';
import { kindChoices, planNewSession, repositoryOf, type NewRequest } from '../client/session/new-session.js';
import { splitCommandLine } from '../client/session/command-line.js';
import { listSessions } from '../state/host-store.js';
import { EXIT, UserError } from '../state/errors.js';
import { shellQuote } from '../client/remote/ssh.js';
import { DEFAULT_SANDBOX_NETWORK } from '../core/sandbox/sandbox-config.js';
import { SANDBOX_NETWORKS, type SandboxNetwork } from '../core/sandbox/sandbox-types.js';

/** The answered request, or null when the user said no (or ended the input). */
export async function askNewSession(home: string, given: NewRequest, registry: KindRegistry): Promise<NewRequest | null> {
  if (!process.stdin.isTTY) throw new UserError('new --interactive asks its questions on a terminal; from a script give the flags', EXIT.usage);
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  let closed = false;
  rl.on('close', () => (closed = true));
  const ask = async (q: string, def: string): Promise<string | null> => {
    if (closed) return null;
    try {
      const a = (await rl.question(`${q}${def ? ` [${def}]` : ''}: `)).trim();
      return a || def;
    } catch {
      return null; // Ctrl-C or Ctrl-D: nothing started
    }
  };
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const taken = listSessions(home).map((s) => s.name);
  try {
    const choices = kindChoices(given.cwd, registry);
    say(`kinds: ${choices.map((c) => (c.program === null ? c.name : `${c.name} (${c.installed ? 'installed' : 'not installed'})`)).join(', ')}`);
    let req: NewRequest = { ...given };
    for (;;) {
      const k = await ask('kind', req.kind ?? 'shell');
      if (k === null) return null;
      if (registry.kinds.has(k)) {
        req.kind = k === 'shell' ? undefined : k; // a shell's command line says its kind itself (`claude` is claude)
        break;
      }
      say(`unknown kind "${k}": one of ${choices.map((c) => c.name).join(', ')}`);
    }
    const own = req.kind !== undefined && registry.kinds.get(req.kind)!.command !== null;
    for (;;) {
      // A shell's default is $SHELL; an agent's own program, or the demo agent, runs with nothing typed.
      const def = req.words.map(shellQuote).join(' ') || (req.kind === undefined ? process.env.SHELL || '/bin/sh' : '');
      const w = await ask(own ? `arguments for ${req.kind}` : req.kind === 'demo' ? 'command (empty: the demo agent)' : 'command', def);
      if (w === null) return null;
      const words = w ? splitCommandLine(w) : [];
      if (Array.isArray(words)) {
        req.words = words;
        break;
      }
      say(words.error);
    }
    // Each answer is checked as the plan checks it; a wrong one is said and asked again.
    const fields: [string, (r: NewRequest, v: string) => NewRequest, (r: NewRequest) => string, (r: NewRequest) => string | null][] = [
      ['name', (r, v) => ({ ...r, name: v || undefined }), (r) => r.name ?? planNewSession(r, { registry, taken }).name, (r) => (r.name === undefined ? null : (checkSessionName(r.name) ?? (taken.includes(r.name) ? `a session named ${r.name} already exists` : null)))],
      ['folder', (r, v) => ({ ...r, cwd: path.resolve(v.replace(/^~(?=$|\/)/, os.homedir())) }), (r) => r.cwd, (r) => (fs.existsSync(r.cwd) && fs.statSync(r.cwd).isDirectory() ? null : `folder ${r.cwd} does not exist`)],
      ['room', (r, v) => ({ ...r, room: v }), (r) => r.room ?? 'default', (r) => checkRoomName(r.room ?? 'default')],
    ];
    for (const [q, set, def, check] of fields) {
      for (;;) {
        const v = await ask(q, def(req));
        if (v === null) return null;
        const next = set(req, v);
        const bad = check(next);
        if (!bad) {
          req = next;
          break;
        }
        say(bad);
      }
    }
    if (repositoryOf(req.cwd)) {
      const name = planNewSession(req, { registry, taken }).name;
      const yes = await ask('in a new worktree? (y/n)', req.worktree ? 'y' : 'n');
      if (yes === null) return null;
      if (/^y(es)?$/i.test(yes)) {
        const branch = await ask('branch', req.worktree?.branch || branchForSession(name));
        if (branch === null) return null;
        req = { ...req, worktree: { ...req.worktree, branch: branch === branchForSession(name) ? undefined : branch } };
      } else req = { ...req, worktree: undefined };
    } else if (req.worktree) say(`${req.cwd} is not in a git repository: no worktree`);
    // Sandboxed (docs/sandbox.md): the default is what the flags or config.json's room or kind say.
    const current = planNewSession(req, { registry, taken }).sandbox;
    const boxed = await ask('sandboxed? (y/n)', current ? 'y' : 'n');
    if (boxed === null) return null;
    if (/^y(es)?$/i.test(boxed)) {
      for (;;) {
        const n = await ask(`network (${SANDBOX_NETWORKS.join(', ')})`, current?.network ?? DEFAULT_SANDBOX_NETWORK);
        if (n === null) return null;
        if (SANDBOX_NETWORKS.includes(n as SandboxNetwork)) {
          req = { ...req, sandbox: { ...(current ?? { backend: 'bwrap' }), network: n as SandboxNetwork } };
          break;
        }
        say(`"${n}" is not one of ${SANDBOX_NETWORKS.join(', ')}`);
      }
    } else if (current) req = { ...req, sandbox: false };
    const plan = planNewSession(req, { registry, taken, from: process.cwd() });
    say(`runs:    ${plan.runs}${plan.kind !== 'shell' ? ` (kind ${plan.kind})` : ''}`);
    say(`in:      ${plan.branch ? `a new worktree on ${plan.branch}` : req.cwd}, room ${req.room ?? 'default'}, as ${plan.name}`);
    say(`same as: ${plan.line}`);
    if (plan.problem) {
      say(`cannot start it: ${plan.problem}`);
      return null;
    }
    const go = await ask('start it? (y/n)', 'y');
    return go !== null && /^y(es)?$/i.test(go) ? req : null;
  } finally {
    rl.close();
  }
}
