/**
 * Every command through the table of exit codes (docs/cli.md, "Exit codes"): each kind of mistake
 * that applies to a command, made for real (real runners, PTYs and git repositories in a temporary
 * home; a lost session is one whose runner was killed), ends with that kind's code and one line on
 * stderr. The same mistake has the same code whichever command makes it.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { EXIT } from '../../src/state/errors.js';
import { BIN, ROOT, cli, cliAsync, cliEnv, destroyHome, makeHome, newSession, waitFor, type CliResult } from '../helpers/home.js';
import { commitFile, gitIn, makeSandbox, readHost, removeSandbox, worktreeSession, type Sandbox } from './worktree-merge-fixture.js';

/** One mistake: the words, the code it must end with, and what it needs (an environment, a terminal). */
interface Mistake {
  what: string;
  args: string[];
  code: number;
  env?: Record<string, string>;
  /** Run on a pseudo-terminal (script(1)): the command needs one to get that far. */
  terminal?: boolean;
  /** Its report is on stdout, a line for each thing it did (doctor's checks, revive's sessions): stderr says nothing. */
  report?: RegExp;
}

let home: string;
let unsafe: string;
let sb: Sandbox;
let clashSb: Sandbox;
/** A folder that is no repository: plain sessions run there. */
let work: string;
/** PATHs: git and nothing else; a gh that refuses and no git; the fake agent CLIs first. */
const paths = { gitOnly: '', noGit: '', withGh: '', agents: '' };
let agentEnv: Record<string, string>;

const FAKES = path.join(ROOT, 'test', 'fixtures', 'programs', 'fake');
const status = (name: string) => (JSON.parse(cli(home, ['ls', '--json']).stdout) as Array<{ name: string; status: string }>).find((s) => s.name === name)?.status;

/** A session whose runner (and program) were killed: lost, as after a crash. */
async function lostSession(name: string, cwd: string): Promise<void> {
  const id = newSession(home, ['--name', name, '--cwd', cwd, '--', 'sh']);
  await waitFor(`${name} running`, () => readHost(home, id).status === 'running');
  const rec = JSON.parse(fs.readFileSync(path.join(home, 'sessions', id, 'host.json'), 'utf8')) as { runnerPid: number; childPid: number };
  process.kill(rec.runnerPid, 'SIGKILL');
  try {
    process.kill(-rec.childPid, 'SIGKILL');
  } catch {
    // gone with its terminal
  }
  await waitFor(`${name} lost`, () => status(name) === 'lost');
}

beforeAll(async () => {
  home = makeHome('ab-exit-');
  unsafe = makeHome('ab-exit-unsafe-');
  fs.chmodSync(unsafe, 0o777);
  work = path.join(home, 'work');
  fs.mkdirSync(work);
  fs.mkdirSync(path.join(home, 'user'));
  for (const dir of ['git-only', 'no-git', 'gh']) fs.mkdirSync(path.join(home, dir));
  const git = spawnSyncOut('sh', ['-c', 'command -v git']);
  fs.symlinkSync(git, path.join(home, 'git-only', 'git'));
  // A gh that would refuse; pr never gets to call it here.
  for (const dir of ['no-git', 'gh']) fs.writeFileSync(path.join(home, dir, 'gh'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
  paths.gitOnly = path.join(home, 'git-only');
  paths.noGit = path.join(home, 'no-git');
  paths.withGh = `${path.join(home, 'gh')}${path.delimiter}${process.env.PATH}`;
  agentEnv = { HOME: path.join(home, 'user'), PATH: `${FAKES}${path.delimiter}${path.join(ROOT, 'bin')}${path.delimiter}${process.env.PATH}` };

  sb = makeSandbox(home);
  clashSb = makeSandbox(home);
  newSession(home, ['--name', 'plain', '--cwd', work, '--', 'sh']);
  // A worktree session at work, with work not committed yet.
  const wt = newSession(home, ['--name', 'wt', '--cwd', sb.repo, '--worktree', '--base', 'main', '--', 'sh']);
  fs.writeFileSync(path.join(readHost(home, wt).worktree!.path, 'notes.txt'), 'mine\n');
  await worktreeSession(sb, 'wtdone');
  const gone = await worktreeSession(sb, 'wtgone');
  fs.rmSync(gone.w.path, { recursive: true, force: true });
  // A branch that cannot merge without a conflict.
  const clash = await worktreeSession(clashSb, 'clash');
  commitFile(clash.w.path, 'a.txt', 'ours\n');
  commitFile(clashSb.repo, 'a.txt', 'theirs\n');
  for (const name of ['done-a', 'done-b']) newSession(home, ['--name', name, '--cwd', work, '--', 'sh', '-c', 'exit 0']);
  const folder = path.join(home, 'folder');
  fs.mkdirSync(folder);
  newSession(home, ['--name', 'nofolder', '--cwd', folder, '--', 'sh', '-c', 'exit 0']);
  await lostSession('lost', work);
  const lostFolder = path.join(home, 'lost-folder');
  fs.mkdirSync(lostFolder);
  await lostSession('lostfolder', lostFolder);
  fs.rmSync(lostFolder, { recursive: true });
  // Claude (the fake CLI), never a turn: its conversation was never saved. And one whose own words pick it.
  for (const [name, words] of [['cc', []], ['pick', ['--', '--resume', '11111111-1111-4111-8111-111111111111']]] as const) {
    const r = cli(home, ['new', '--agent', 'claude', '--name', name, '--cwd', work, ...words], { env: agentEnv });
    if (r.code !== 0) throw new Error(`new --agent claude failed (${r.code}): ${r.stderr}`);
  }
  await waitFor('the exited ones', () => ['done-a', 'done-b', 'nofolder'].every((n) => status(n) === 'exited'));
  fs.rmSync(folder, { recursive: true });
}, 120_000);

afterAll(() => {
  destroyHome(home);
  destroyHome(unsafe);
  removeSandbox(sb);
  removeSandbox(clashSb);
});

function spawnSyncOut(command: string, args: string[]): string {
  return spawnSync(command, args, { encoding: 'utf8' }).stdout.trim();
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The CLI on a pseudo-terminal: its code and its output (stdout and stderr are one stream there). */
function onTerminal(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { env: cliEnv(home, env), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout: '', stderr: out.replace(/\r/g, '') }));
  });
}

// The kinds of mistake, each with its one code.
const unknown = (cmd: string[]): Mistake => ({ what: 'no such session', args: [...cmd.slice(0, 1), 'nosuch', ...cmd.slice(1)], code: EXIT.unknownSession });
const ambiguous = (cmd: string[]): Mistake => ({ what: 'ambiguous session', args: [...cmd.slice(0, 1), 'done-', ...cmd.slice(1)], code: EXIT.ambiguousSession });
const badOption = (cmd: string[]): Mistake => ({ what: 'an unknown option', args: [...cmd, '--bogus'], code: EXIT.usage });
const unsafeHome = (args: string[]): Mistake => ({ what: 'an unsafe home', args, code: EXIT.unsafeHome, env: { AGENT_BOARD_HOME: unsafe } });
const gitMissing = (args: string[]): Mistake => ({ what: 'git missing', args, code: EXIT.gitMissing, env: { PATH: paths.noGit } });
const noWorktree = (args: string[]): Mistake => ({ what: 'a session without a worktree', args, code: EXIT.notARepo });

/** Each command and the mistakes that apply to it. */
const WALK: Record<string, () => Mistake[]> = {
  new: () => [
    badOption(['new']),
    { what: 'a bad count', args: ['new', '--scrollback', 'lots'], code: EXIT.usage },
    { what: 'a bad budget', args: ['new', '--budget', 'lots'], code: EXIT.usage },
    { what: 'an unknown agent kind', args: ['new', '--agent', 'nosuch'], code: EXIT.usage },
    { what: 'a folder that does not exist', args: ['new', '--cwd', '/nonexistent/folder'], code: EXIT.usage },
    { what: 'a name taken', args: ['new', '--name', 'plain', '--cwd', work], code: EXIT.usage },
    { what: 'options that go with --worktree', args: ['new', '--base', 'main', '--cwd', sb.repo], code: EXIT.usage },
    { what: '--attach without a terminal', args: ['new', '--attach', '--cwd', work], code: EXIT.usage },
    { what: 'outside a repository', args: ['new', '--worktree', '--cwd', work], code: EXIT.notARepo },
    { what: 'the branch exists', args: ['new', '--name', 'other', '--worktree', 'agent/wt', '--cwd', sb.repo], code: EXIT.branchExists },
    gitMissing(['new', '--name', 'nogit', '--worktree', '--cwd', sb.repo, '--', '/bin/sh']),
    unsafeHome(['new', '--cwd', work]),
  ],
  usage: () => [
    badOption(['usage']),
    { what: 'an unknown --by', args: ['usage', '--by', 'week'], code: EXIT.usage },
    { what: 'a --since it cannot read', args: ['usage', '--since', 'soon'], code: EXIT.usage },
    unsafeHome(['usage']),
  ],
  ls: () => [badOption(['ls']), { what: 'a bad --host', args: ['ls', '--host', '-oProxyCommand=x'], code: EXIT.usage }, unsafeHome(['ls'])],
  peek: () => [
    unknown(['peek']),
    ambiguous(['peek']),
    badOption(['peek', 'plain']),
    { what: 'a bad count', args: ['peek', 'plain', '--scrollback', 'lots'], code: EXIT.usage },
    { what: 'a lost session (no screen left)', args: ['peek', 'lost'], code: EXIT.sessionUnavailable },
    unsafeHome(['peek', 'plain']),
  ],
  attach: () => [
    unknown(['attach']),
    ambiguous(['attach']),
    badOption(['attach', 'plain']),
    { what: 'a bad detach key', args: ['attach', 'plain', '--detach-key', 'ctrl-nope'], code: EXIT.usage },
    { what: 'no terminal', args: ['attach', 'plain'], code: EXIT.usage },
    { what: 'a lost session', args: ['attach', 'lost'], code: EXIT.sessionUnavailable, terminal: true },
    unsafeHome(['attach', 'plain']),
  ],
  kill: () => [
    unknown(['kill']),
    ambiguous(['kill']),
    badOption(['kill', 'plain']),
    { what: 'an unknown signal', args: ['kill', 'plain', '--signal', 'NOPE'], code: EXIT.usage },
    { what: 'a lost session whose program is gone too', args: ['kill', 'lost'], code: EXIT.sessionUnavailable },
    unsafeHome(['kill', 'plain']),
  ],
  rm: () => [
    unknown(['rm']),
    ambiguous(['rm']),
    badOption(['rm', 'plain']),
    { what: '--yes without --discard', args: ['rm', 'plain', '--yes'], code: EXIT.usage },
    { what: 'a running session without --force', args: ['rm', 'plain'], code: EXIT.failure },
    noWorktree(['rm', 'plain', '--discard', '--yes']),
    gitMissing(['rm', 'wtdone', '--discard']), // (plain rm keeps the worktree and its branch without git, and says so)
    unsafeHome(['rm', 'plain']),
  ],
  rename: () => [
    unknown(['rename', 'x']),
    ambiguous(['rename', 'x']),
    badOption(['rename', 'plain', 'x']),
    { what: 'a bad name', args: ['rename', 'plain', 'no good'], code: EXIT.usage },
    { what: 'a name taken', args: ['rename', 'plain', 'wt'], code: EXIT.usage },
    { what: 'a missing argument', args: ['rename', 'plain'], code: EXIT.usage },
    unsafeHome(['rename', 'plain', 'x']),
  ],
  merge: () => [
    unknown(['merge']),
    ambiguous(['merge']),
    badOption(['merge', 'wt']),
    { what: 'options that do not go together', args: ['merge', 'wt', '--squash', '--rebase'], code: EXIT.usage },
    noWorktree(['merge', 'plain']),
    { what: 'its worktree is gone (--rebase)', args: ['merge', 'wtgone', '--rebase'], code: EXIT.notARepo },
    { what: 'uncommitted work', args: ['merge', 'wt'], code: EXIT.workAtRisk },
    { what: 'a conflict', args: ['merge', 'clash'], code: EXIT.mergeConflict },
    gitMissing(['merge', 'wt']),
    unsafeHome(['merge', 'wt']),
  ],
  pr: () => [
    unknown(['pr']),
    ambiguous(['pr']),
    badOption(['pr', 'wt']),
    noWorktree(['pr', 'plain']),
    { what: 'gh missing', args: ['pr', 'wt'], code: EXIT.ghMissing, env: { PATH: paths.gitOnly } },
    { what: 'uncommitted work', args: ['pr', 'wt'], code: EXIT.workAtRisk, env: { PATH: paths.withGh } },
    gitMissing(['pr', 'wt']),
    unsafeHome(['pr', 'wt']),
  ],
  restart: () => [
    unknown(['restart']),
    ambiguous(['restart']),
    badOption(['restart', 'plain']),
    { what: 'its folder is gone', args: ['restart', 'nofolder'], code: EXIT.sessionUnavailable },
    { what: 'its worktree is gone', args: ['restart', 'wtgone'], code: EXIT.notARepo },
    unsafeHome(['restart', 'plain']),
  ],
  revive: () => [
    unknown(['revive']),
    badOption(['revive', 'lost']),
    { what: 'no session and no --all', args: ['revive'], code: EXIT.usage },
    { what: 'sessions and --all', args: ['revive', 'lost', '--all'], code: EXIT.usage },
    { what: 'could not be revived (its folder is gone)', args: ['revive', 'lostfolder'], code: EXIT.sessionUnavailable, report: /^lostfolder not revived: its folder \S+ is gone/ },
    unsafeHome(['revive', '--all']),
  ],
  fork: () => [
    unknown(['fork']),
    ambiguous(['fork']),
    badOption(['fork', 'plain']),
    { what: 'outside a repository', args: ['fork', 'plain', '--worktree'], code: EXIT.notARepo },
    { what: 'a conversation never saved', args: ['fork', 'cc'], code: EXIT.sessionUnavailable, env: agentEnv },
    { what: 'its own words pick its conversation', args: ['fork', 'pick'], code: EXIT.usage, env: agentEnv },
    gitMissing(['fork', 'plain', '--worktree']),
    unsafeHome(['fork', 'plain']),
  ],
  explain: () => [
    unknown(['explain']),
    ambiguous(['explain']),
    badOption(['explain', 'plain']),
    { what: 'an exited session', args: ['explain', 'done-a'], code: EXIT.sessionUnavailable },
    { what: 'a lost session', args: ['explain', 'lost'], code: EXIT.sessionUnavailable },
    unsafeHome(['explain', 'plain']),
  ],
  diff: () => [
    unknown(['diff']),
    ambiguous(['diff']),
    badOption(['diff', 'wt']),
    noWorktree(['diff', 'plain']),
    { what: 'its worktree is gone', args: ['diff', 'wtgone'], code: EXIT.notARepo },
    gitMissing(['diff', 'wt']),
    unsafeHome(['diff', 'wt']),
  ],
  send: () => [
    unknown(['send', 'hi']),
    ambiguous(['send', 'hi']),
    badOption(['send', 'plain', 'hi']),
    { what: 'no text', args: ['send', 'plain'], code: EXIT.usage },
    { what: 'a bad stage', args: ['send', 'plain', '--wait', 'typed', 'hi'], code: EXIT.usage },
    { what: 'a bad duration', args: ['send', 'plain', '--timeout', 'soon', 'hi'], code: EXIT.usage },
    { what: 'an exited session', args: ['send', 'done-a', 'hi'], code: EXIT.sessionUnavailable },
    { what: 'a lost session', args: ['send', 'lost', 'hi'], code: EXIT.sessionUnavailable },
    unsafeHome(['send', 'plain', 'hi']),
  ],
  chat: () => [
    { what: 'an unknown subcommand', args: ['chat', 'pots'], code: EXIT.usage },
    badOption(['chat', 'read']),
    { what: 'nothing to post', args: ['chat', 'post'], code: EXIT.usage },
    { what: 'a bad room', args: ['chat', 'post', '--room', 'no room', 'hi'], code: EXIT.usage },
    { what: 'a bad id', args: ['chat', 'read', '--since', 'yesterday'], code: EXIT.usage },
    { what: 'a bad count', args: ['chat', 'config', '--max-hops', 'ten'], code: EXIT.usage },
    { what: 'no such session (the environment names it)', args: ['chat', 'post', 'hi'], code: EXIT.unknownSession, env: { AGENT_BOARD_SESSION: 'nosuch' } },
    { what: 'a human\'s option inside a session', args: ['chat', 'post', '--from', 'me', 'hi'], code: EXIT.usage, env: { AGENT_BOARD_SESSION: 'plain' } },
    unsafeHome(['chat', 'post', 'hi']),
  ],
  mcp: () => [{ what: 'an extra word', args: ['mcp', 'extra'], code: EXIT.usage }, badOption(['mcp'])],
  hook: () => [{ what: 'a missing argument', args: ['hook'], code: EXIT.usage }],
  demo: () => [badOption(['demo']), { what: 'no terminal for the board', args: ['demo'], code: EXIT.usage }, unsafeHome(['demo', '--no-board'])],
  web: () => [
    badOption(['web']),
    { what: 'a bad port', args: ['web', '--port', '70000'], code: EXIT.usage },
    { what: 'another address without TLS', args: ['web', '--host', '0.0.0.0'], code: EXIT.usage },
    { what: 'a certificate without its key', args: ['web', '--tls-cert', '/nonexistent.pem'], code: EXIT.usage },
    { what: 'a bad --notify', args: ['web', '--notify', 'mail:me'], code: EXIT.usage },
    { what: 'pair with no server running', args: ['web', 'pair'], code: EXIT.failure },
    { what: 'revoke an unknown device', args: ['web', 'devices', '--revoke', 'nosuch'], code: EXIT.failure },
    unsafeHome(['web', '--status']),
  ],
  doctor: () => [
    badOption(['doctor']),
    { what: 'an extra word', args: ['doctor', 'extra'], code: EXIT.usage },
    { what: 'a check fails (an unsafe home)', args: ['doctor'], code: EXIT.failure, env: { AGENT_BOARD_HOME: unsafe }, report: /^fail {2}home: / },
  ],
  bridge: () => [
    unknown(['bridge']),
    ambiguous(['bridge']),
    { what: 'an exited session', args: ['bridge', 'done-a'], code: EXIT.sessionUnavailable },
    { what: 'a lost session', args: ['bridge', 'lost'], code: EXIT.sessionUnavailable },
    unsafeHome(['bridge', 'plain']),
  ],
  feed: () => [{ what: 'without --json', args: ['feed'], code: EXIT.usage }, badOption(['feed', '--json']), unsafeHome(['feed', '--json'])],
  board: () => [
    badOption(['board']),
    { what: 'no terminal', args: ['board'], code: EXIT.usage },
    { what: 'a bad detach key', args: ['board', '--detach-key', 'ctrl-nope'], code: EXIT.usage },
    { what: 'a bad --host', args: ['board', '--host', '-oProxyCommand=x'], code: EXIT.usage },
  ],
  // The program itself: a mistyped command, --host before a command that runs here only.
  '': () => [
    { what: 'an unknown command', args: ['lss'], code: EXIT.usage },
    { what: '--host before a command without one', args: ['--host', 'box', 'merge', 'wt'], code: EXIT.usage },
  ],
};

/** Runs a few at a time: each is a node start, and the machine is shared. */
async function runAll(mistakes: Mistake[]): Promise<Array<{ m: Mistake; r: CliResult }>> {
  const out: Array<{ m: Mistake; r: CliResult }> = [];
  const queue = [...mistakes];
  await Promise.all(Array.from({ length: 3 }, async () => {
    for (let m = queue.shift(); m; m = queue.shift()) {
      out.push({ m, r: m.terminal ? await onTerminal(m.args, m.env) : await cliAsync(home, m.args, { env: m.env }) });
    }
  }));
  return out;
}

describe('exit codes: every command, each mistake that applies to it', () => {
  it('walks every command of the program (but the runner\'s own entry)', async () => {
    const program = await buildProgram();
    expect(Object.keys(WALK).filter(Boolean).sort()).toEqual(program.commands.map((c) => c.name()).filter((n) => n !== 'runner').sort());
  });

  for (const [command, mistakes] of Object.entries(WALK)) {
    it(command || '(the program)', async () => {
      for (const { m, r } of await runAll(mistakes())) {
        const label = `${m.args.join(' ')} (${m.what}): ${r.stderr}`;
        expect(r.code, label).toBe(m.code);
        const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
        if (m.report) {
          expect(lines, label).toEqual([]);
          expect(r.stdout, label).toMatch(new RegExp(m.report.source, 'm'));
        } else {
          expect(lines, label).toEqual([expect.stringMatching(/^agent-board: \S/)]);
        }
      }
    }, 120_000);
  }

  it('left everything as it was: no session made, removed or renamed, no branch merged', () => {
    const names = (JSON.parse(cli(home, ['ls', '--json']).stdout) as Array<{ name: string }>).map((s) => s.name).sort();
    expect(names).toEqual(['cc', 'clash', 'done-a', 'done-b', 'lost', 'lostfolder', 'nofolder', 'pick', 'plain', 'wt', 'wtdone', 'wtgone']);
    expect(gitIn(sb.repo, 'log', '--format=%s', 'main')).toBe('first');
    expect(fs.readdirSync(unsafe)).toEqual([]);
  });
});
