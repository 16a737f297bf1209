/**
 * The steps every real agent CLI goes through (one test file per CLI calls
 * agentLane): start and turn idle; a prompt turns it busy, the mock's reply
 * shows on its screen and it turns idle again, each read from the best layer
 * the kind has; a chat mention wakes it into a turn; restart resumes the
 * conversation, and so does bringing it back after a simulated reboot; a fork
 * continues it under a new id; and `new -- <program>` with no --agent finds the kind. The
 * latencies of the busy and idle flips are printed for the closing note.
 * A CLI that is not installed at its pinned version makes the suite say
 * NOT RUN loudly, once, instead of failing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivitySource } from '../../src/core/agents/activity.js';
import { OVERRULE_AFTER_MS } from '../../src/core/agents/activity-layers.js';
import { SETUPS, type LaneKind } from './agent-homes.js';
import { findCli, Lane, until, type MockEntry, type Reading } from './lane.js';

/** Between streamed words: a turn lasts about 14 x this, long enough to be seen busy. */
const DELAY_MS = 60;
const START_MS = 30_000;
const TURN_MS = 30_000;
/** How long after the first idle reading a better layer (a hook, notify) may still confirm it. */
const HOOK_CONFIRM_MS = 10_000;
/** What brings a session back after a reboot. */
const BRING_BACK = 'revive';

export interface LaneOptions {
  /** The layers expected for this run, when they differ from the kind's (Gemini without its hooks). */
  sources?: { busy: ActivitySource; idle: ActivitySource };
  /** The fork's conversation id cannot be learned in this run (Gemini without its hooks). */
  forkIdUnknown?: boolean;
  /** More checks right after the first start (Gemini: its settings layer was read). */
  afterStart?: (lane: Lane, id: string, newStderr: string) => Promise<void>;
  /** Why this run cannot be made on this machine (the sandbox lane: no bubblewrap): NOT RUN, loudly, like a missing CLI. */
  skip?: string;
  /** Says what this run is, after the kind (the sandbox lane). */
  label?: string;
  /** The folder the lane's world is made in (Lane's `base`). */
  base?: string;
  /** Runs once the lane and its mock are up, before the first `new`: may plant files and change `lane.env`. */
  prepare?: (lane: Lane) => void;
  /** Flags every `new` of the suite gets before `--` (the sandbox lane: `--sandbox --network allowlist --allow-host <mock>`). */
  newFlags?: (lane: Lane) => string[];
  /** A last step, after all the others, on the first session (the sandbox lane: what its proxy refused). */
  lastly?: { title: string; run: (lane: Lane, id: string) => Promise<void> };
}

interface Turn {
  /** Where the busy run that carried the turn began (its first reading, whatever its layer). */
  busy: Reading;
  /** The first idle after the mock's answer ended. */
  idle: Reading;
  /** Every reading from `busy` to `idle`, and the idle ones that followed within a few seconds. */
  during: Reading[];
  request: MockEntry;
  end: MockEntry;
  /** When the action that started it returned (send's `applied`, the chat post). */
  t0: number;
}

export function agentLane(kind: LaneKind, o: LaneOptions = {}): void {
  const cli = findCli(kind);
  const found: ReturnType<typeof findCli> = 'skip' in cli || !o.skip ? cli : { skip: o.skip };
  const setup = SETUPS[kind];
  const sources = o.sources ?? { busy: setup.busySource, idle: setup.idleSource };
  const title = `agent lane: ${kind}${o.label ? ` ${o.label}` : ''} (the real CLI, runner and PTY against a local mock)`;
  if ('skip' in found) {
    const bar = '!'.repeat(100);
    console.error(`\n${bar}\n!! ${title}: NOT RUN: ${found.skip}\n${bar}\n`);
  }

  // A step waits up to START_MS or TURN_MS for each of its events, several in a row (a fork: two starts and a
  // turn); the test's own timeout is the backstop past those, not a bound of its own (on two busy cores a
  // fork step took 52 s).
  describe.skipIf('skip' in found)('skip' in found ? `${title}: NOT RUN: ${found.skip}` : title, { timeout: 240_000 }, () => {
    let lane: Lane;
    let id = '';
    let log: Reading[] = [];
    let first: Turn;
    const room = `lane-${kind}`;
    const screen = (name = 'x') => async () => `--- screen of ${name}:\n${await lane.peek(name)}`;

    beforeAll(async () => {
      lane = new Lane(kind, (found as { binDir: string }).binDir, o.base);
      await lane.start(DELAY_MS);
      o.prepare?.(lane);
    });
    const flags = () => o.newFlags?.(lane) ?? [];
    afterAll(() => lane?.stop());

    /**
     * Runs `act`, waits for the request that carries `marker` and the end of the
     * mock's answer to it, then for the idle after that end. The turn's busy is
     * the run of busy readings just before that idle: typing a prompt may flip a
     * lesser layer earlier, and that is not the turn.
     */
    async function turn(readings: Reading[], act: () => Promise<void>, marker: string, name = 'x'): Promise<Turn> {
      // A turn that starts within OVERRULE_AFTER_MS of a hook's idle is not seen at all when the kind
      // has no hook for busy (Codex: notify only at a turn's end): its title's busy cannot overrule the
      // hook yet (src/core/agents/activity-layers.ts). Real prompts rarely come that fast; the lane waits it out.
      const last = readings.at(-1);
      if (last) await new Promise((r) => setTimeout(r, Math.max(0, last.since + OVERRULE_AFTER_MS + 200 - Date.now())));
      const from = readings.length;
      const tStart = Date.now();
      await act();
      const t0 = Date.now();
      const found = (pred: (e: MockEntry) => boolean) => () => lane.mock.entries().find(pred);
      const request = await until(`the mock to get "${marker}" from ${name}`, found((e) => e.ev === 'request' && e.t >= tStart && !!e.body?.includes(marker)), TURN_MS, screen(name));
      const end = await until(`the mock to finish its answer to ${name}`, found((e) => e.ev === 'end' && (e as { stream?: boolean }).stream !== false && e.t >= request.t), TURN_MS);
      const seen = async () => `--- readings: ${JSON.stringify(readings.slice(from))}\n${await screen(name)()}`;
      const found1 = await until(`${name} idle after the answer (ended ${end.t})`, () => readings.slice(from).find((r) => r.activity === 'idle' && r.since >= end.t), TURN_MS, seen);
      // A lesser layer may read the idle a moment before the mock logged the end of its answer (through a
      // sandbox's proxy, Codex's title went idle 83 ms before it): the turn's idle is the first of that idle run.
      let i = readings.indexOf(found1);
      while (i - 1 >= from && readings[i - 1]!.activity === 'idle' && readings[i - 1]!.since >= request.t) i--;
      const idle = readings[i]!;
      let j = i;
      while (j - 1 >= from && readings[j - 1]!.activity === 'busy') j--;
      if (j === i) throw new Error(`${name} was never seen busy during the turn; readings: ${JSON.stringify(readings.slice(from))}`);
      // A better layer may confirm the idle a moment later (Codex: its title first, then notify). The hook is a process the
      // CLI starts (`agent-board hook ...`): on CI's two busy cores Claude's Stop hook once came more than 3 s after the title.
      await until(`idle by ${sources.idle}`, () => readings.slice(i).some((r) => r.source === sources.idle), HOOK_CONFIRM_MS).catch(() => undefined);
      const after = readings.slice(i);
      const k = after.findIndex((r) => r.activity !== 'idle');
      return { busy: readings[j]!, idle, during: [...readings.slice(j, i), ...(k < 0 ? after : after.slice(0, k))], request, end, t0 };
    }

    const byBest = (t: Turn) => t.during.find((r) => r.activity === 'busy' && r.source === sources.busy);
    const report = (what: string, t: Turn, from: string) => {
      const best = byBest(t);
      const also = best && best !== t.busy ? `; by ${best.source} ${best.since - t.t0} ms` : '';
      const idle = idleBest(t);
      const alsoIdle = idle && idle !== t.idle ? `; by ${idle.source} ${idle.since - t.end.t} ms` : '';
      console.log(
        `[agent lane] ${kind} ${what}: busy ${t.busy.since - t.t0} ms after ${from} (by ${t.busy.source}${also}), idle ${t.idle.since - t.end.t} ms after the mock's last byte (by ${t.idle.source}${alsoIdle})`,
      );
    };
    const idleBest = (t: Turn) => t.during.find((r) => r.activity === 'idle' && r.source === sources.idle);
    /** The turn was read from the kind's best layers, start and end (a lesser layer may see either first). */
    const expectSources = (t: Turn) => {
      expect(byBest(t), `busy by ${sources.busy} during the turn: ${JSON.stringify(t.during)}`).toBeDefined();
      expect(idleBest(t), `idle by ${sources.idle} after the turn: ${JSON.stringify(t.during)}`).toBeDefined();
    };

    const idleNotBytes = (sid: string) => {
      const rec = lane.record(sid);
      return rec?.activity === 'idle' && rec.activitySource !== 'bytes';
    };
    const send = async (name: string, text: string) => {
      const r = await lane.ab(['send', name, text]);
      expect(r.stdout, r.stderr).toMatch(/^applied: typed /m);
    };

    it('`new --agent` starts it; it turns idle', async () => {
      const started = await lane.newSession(['--agent', kind, '--name', 'x', '--room', room, ...flags(), '--', ...setup.words]);
      id = started.id;
      log = lane.watch(id);
      // Idle by a layer that looks at the program (pi's bytes go quiet while it still starts up).
      await until('x idle after start', () => idleNotBytes(id), START_MS, screen());
      await lane.settled(id);
      await o.afterStart?.(lane, id, started.stderr);
    });

    it(`a prompt: busy by ${sources.busy}, the reply on its screen, idle by ${sources.idle}`, async () => {
      first = await turn(log, () => send('x', 'Say hello: lane check 1'), 'lane check 1');
      report('prompt', first, "send's applied");
      expectSources(first);
      await lane.screenShows('x', `Mock reply ${first.end.n} from`, 5000);
    });

    it('a chat mention wakes it: the runner types the wake, it takes a turn', async () => {
      const woken = await turn(log, async () => {
        const r = await lane.ab(['chat', 'post', '--room', room, '@x please look at the build']);
        expect(r.code, r.stderr).toBe(0);
      }, 'a message mentions you');
      report('wake', woken, 'the chat post');
      expectSources(woken);
      expect(woken.request.body).toContain(`--room ${room}`);
    });

    /** The conversation came back: the request of a later turn carries the first turn, our prompt and the mock's answer. */
    const carriesFirstTurn = (t: Turn, what: string) => {
      expect(t.request.body, `${what}: the first prompt is in the request`).toContain('lane check 1');
      expect(t.request.body, `${what}: the mock's first answer is in the request`).toContain(`Mock reply ${first.end.n} from`);
    };
    /**
     * Waits for session `sid` to run again, idle, after `t` (a restart, a fork), showing `shows`
     * (default: the last answer before `t`).
     */
    const backIdle = async (sid: string, name: string, t: number, shows?: string) => {
      await until(`${name} idle after ${t}`, () => {
        const rec = lane.record(sid);
        return rec?.status === 'running' && idleNotBytes(sid) && Date.parse(rec.activitySince!) > t;
      }, START_MS, screen(name));
      // Its screen shows the conversation it came back with (the last answer before `t`). Until then a prompt may be lost: Gemini says
      // idle (its SessionStart hook) seconds before a resumed session takes input (docs/agents.md, the lane).
      const last = lane.mock.entries().filter((e) => e.ev === 'end' && e.t < t).at(-1)!;
      await lane.screenShows(name, shows ?? `Mock reply ${last.n} from`, START_MS);
      await lane.settled(sid);
    };

    it('restart resumes the conversation', async () => {
      const before = lane.record(id)!;
      // Claude, Gemini and pi got an id of ours at `new`; Codex's came from its notify hook after the first turn.
      expect(before.resumeId, 'the conversation id in host.json').toMatch(/^[0-9a-f-]{36}$/);
      const t = Date.now();
      const r = await lane.ab(['restart', 'x']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`conversation ${before.resumeId} resumed`);
      await backIdle(id, 'x', t);
      const again = await turn(log, () => send('x', 'And now: lane check 2'), 'lane check 2');
      report('after restart', again, "send's applied");
      expectSources(again);
      // The id itself (Claude, Codex, Gemini), or the folder it names (pi's --session-dir).
      expect(lane.record(id)?.args?.join(' ')).toContain(before.resumeId);
      carriesFirstTurn(again, 'after restart');
    });

    it(`after a simulated reboot (SIGKILL of the runner and the program's process group), ${BRING_BACK} brings it back with its conversation`, async () => {
      const before = lane.record(id)!;
      process.kill(-before.childPid!, 'SIGKILL');
      process.kill(before.runnerPid!, 'SIGKILL');
      const gone = (pid: number) => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      };
      await until('the runner gone', () => gone(before.runnerPid!), 5000);
      expect((await lane.ab(['ls'])).stdout).toMatch(/^\S+\s+x\s+\S+\s+lost/m);
      const t = Date.now();
      const r = await lane.ab([BRING_BACK, '--all']);
      expect(r.code, r.stderr).toBe(0);
      // One line per lost session: only x was lost; its conversation named by the start of its id.
      expect(r.stdout.trim()).toBe(`x revived (${kind}, conversation ${before.resumeId!.slice(0, 4)}… resumed)`);
      expect(lane.record(id)?.args?.join(' ')).toContain(before.resumeId);
      // A power cut right after a turn may cost that turn's answer: Claude writes it to its transcript
      // a moment after its Stop hook. So any earlier answer on the screen says the conversation is
      // back (a resumed Codex shows only its last turns); the next request shows how much of it.
      await backIdle(id, 'x', t, 'Mock reply ');
      const again = await turn(log, () => send('x', 'Back from the reboot: lane check 4'), 'lane check 4');
      report(`after ${BRING_BACK}`, again, "send's applied");
      expectSources(again);
      carriesFirstTurn(again, `after ${BRING_BACK}`);
    });

    it('fork continues the conversation under a new id; the original still runs', async () => {
      const source = lane.record(id)!;
      const t = Date.now();
      const r = await lane.ab(['fork', 'x', '--name', 'xf']);
      expect(r.code, r.stderr).toBe(0);
      const fid = r.stdout.trim();
      expect(r.stderr).toContain(`conversation ${source.resumeId} forked as`);
      const flog = lane.watch(fid);
      await backIdle(fid, 'xf', t);
      // Restarted before its first turn, the fork keeps the history it was forked with: resumed where the
      // CLI saved the fork at once (Gemini, pi), forked again from its source where it saves at the first turn.
      const t1 = Date.now();
      const again = await lane.ab(['restart', 'xf']);
      expect(again.stdout, again.stderr).toMatch(/: (conversation \S+ resumed|its fork of conversation \S+ was never saved \(no turn yet\): forked again.*)$/m);
      console.log(`[agent lane] ${kind} fork restarted before its first turn: ${again.stdout.trim().replace(/^.*?\): /, '')}`);
      await backIdle(fid, 'xf', t1);
      const forked = await turn(flog, () => send('xf', 'On the fork: lane check 5'), 'lane check 5', 'xf');
      report('fork', forked, "send's applied");
      expectSources(forked);
      carriesFirstTurn(forked, 'on the fork');
      // Its own conversation: given by us (Claude, pi) or named by its hooks after the turn (Codex, Gemini).
      const fork = await until('the fork\'s conversation id', () => lane.record(fid)?.resumeId ?? (o.forkIdUnknown ? 'unknown' : undefined), 5000);
      if (!o.forkIdUnknown) expect(fork).not.toBe(source.resumeId);
      const still = lane.record(id)!;
      expect(still.status).toBe('running');
      expect(still.resumeId).toBe(source.resumeId);
      expect(() => process.kill(still.runnerPid!, 0)).not.toThrow();
    });

    it('`new -- <program>` with no --agent: the kind follows the program, its hooks are wired; restarted before a turn, it starts afresh', async () => {
      const y = await lane.newSession(['--name', 'y', '--room', `${room}-2`, ...flags(), '--', kind, ...setup.words]);
      expect(lane.record(y.id)?.agent, 'the agent field of the session started with `new -- ' + kind + '`').toBe(kind);
      const ylog = lane.watch(y.id);
      await until('y idle after start', () => idleNotBytes(y.id), START_MS, screen('y'));
      await lane.settled(y.id);
      // Before its first turn nothing is saved: restart starts it afresh (a resume would fail), under the same id where it took ours.
      const given = lane.record(y.id)?.resumeId;
      const t0 = Date.now();
      const r = await lane.ab(['restart', 'y']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(given ? `conversation ${given} was never saved (no turn yet): started afresh as ${given}` : /its conversation id was never learned \(codex names it after its first turn\): started afresh/);
      await until('y idle after its restart', () => idleNotBytes(y.id) && Date.parse(lane.record(y.id)!.activitySince!) > t0, START_MS, screen('y'));
      await lane.settled(y.id);
      const t = await turn(ylog, () => send('y', 'Say hello: lane check 3'), 'lane check 3', 'y');
      report('started as a program', t, "send's applied");
      expectSources(t);
      expect(t.request.body, 'a fresh conversation').not.toContain('lane check 1');
    });

    if (o.lastly) {
      const last = o.lastly;
      it(last.title, () => last.run(lane, id));
    }
  });
}
