import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatRecord } from '../../src/core/chat/chat.js';
import { chatFile } from '../../src/state/paths.js';
import { fakeSession } from '../helpers/chat.js';
import { BIN, cli, cliEnv, destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';

let home: string;
beforeEach(() => {
  home = makeHome('ab-chatcli-');
});
afterEach(() => destroyHome(home));

const json = (room: string, extra: string[] = [], env: Record<string, string> = {}) =>
  cli(home, ['chat', 'read', '--room', room, '--json', ...extra], { env }).stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as ChatRecord);

describe('agent-board chat', () => {
  it('new --room puts a session in a room; ls shows it; an agent inside posts as itself to its own room', async () => {
    const inside = `node ${BIN} chat post "hello @bob, not \\\`@carol\\\`"; exec sleep 60`;
    // bob and carol exist before alice posts: a mention names a member at the time of the post.
    fakeSession(home, 'bob', 'lab');
    fakeSession(home, 'carol', 'lab');
    newSession(home, ['--name', 'alice', '--room', 'lab', '--', 'sh', '-c', inside]);
    fakeSession(home, 'old'); // a record from before rooms
    const ls = JSON.parse(cli(home, ['ls', '--json']).stdout) as { name: string; room: string }[];
    expect(Object.fromEntries(ls.map((s) => [s.name, s.room]))).toEqual({ alice: 'lab', bob: 'lab', carol: 'lab', old: 'default' });
    expect(cli(home, ['ls']).stdout).toMatch(/ID\s+NAME\s+AGENT\s+STATUS\s+ROOM[^\n]*\n(?:[^\n]*\n)*\S+\s+alice\s+shell\s+\S+\s+lab\s/);
    const [rec] = await waitFor('the post from inside', () => { const r = json('lab'); return r.length > 0 && r; }, 10_000);
    expect(rec).toMatchObject({ id: 1, from: 'alice', kind: 'agent', text: 'hello @bob, not `@carol`', mentions: ['bob'] });
    const bad = cli(home, ['new', '--room', '../x', '--', 'sleep', '1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/invalid room "..\/x"/);
  });

  it('a human posts and reads: text, -, --since, json, mentions of room members only', () => {
    fakeSession(home, 'alice', 'lab');
    fakeSession(home, 'Bob', 'lab');
    fakeSession(home, 'carol'); // in default, not lab
    const p = cli(home, ['chat', 'post', '--room', 'lab', 'hi', '@alice', '@bob', '@carol', '@all']);
    expect(p).toMatchObject({ code: 0, stdout: 'posted #1 to lab\n' });
    expect(cli(home, ['chat', 'post', '--room', 'lab', '--from', 'ann', '-'], { input: 'two\nlines\n' }).code).toBe(0);
    const records = json('lab');
    expect(records.map((r) => [r.id, r.from, r.kind, r.mentions])).toEqual([[1, 'human', 'human', ['alice', 'Bob', 'all']], [2, 'ann', 'human', []]]);
    expect(records[1]!.text).toBe('two\nlines');
    const human = cli(home, ['chat', 'read', '--room', 'lab']).stdout;
    expect(human).toMatch(/^#1 \d\d:\d\d human: hi @alice @bob @carol @all\n#2 \d\d:\d\d ann: two\n {4}lines\n$/);
    expect(json('lab', ['--since', '1']).map((r) => r.id)).toEqual([2]);
    expect(cli(home, ['chat', 'read', '--room', 'lab', '--since', 'x']).code).toBe(2);
    expect(cli(home, ['chat', 'read', '--room', 'nowhere']).stdout).toBe('');
    expect(cli(home, ['chat', 'post', '--room', 'lab', '  ']).code).toBe(2);
    expect(cli(home, ['chat', 'post', '--room', 'a/b', 'x']).code).toBe(2);
    expect(cli(home, ['chat', 'post', '--from', 'system', 'x']).stderr).toMatch(/reserved/);
    expect(cli(home, ['chat', 'post', '--from', 'alice', 'x']).stderr).toMatch(/is a session's name/);
    expect(fs.statSync(chatFile(home, 'lab')).mode & 0o777).toBe(0o600);
  });

  it('inside a session the sender is the session, an agent, always', () => {
    const alice = fakeSession(home, 'alice', 'lab');
    const env = { AGENT_BOARD_SESSION: alice };
    expect(cli(home, ['chat', 'post', 'from', 'inside'], { env }).stdout).toBe('posted #1 to lab\n');
    expect(json('lab')[0]).toMatchObject({ from: 'alice', kind: 'agent' });
    for (const flags of [['--human'], ['--as', 'ann'], ['--from', 'ann']]) {
      const r = cli(home, ['chat', 'post', ...flags, 'x'], { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/inside session alice you are alice, an agent/);
    }
    const cont = cli(home, ['chat', 'continue', '--room', 'lab'], { env });
    expect(cont.code).toBe(2);
    expect(cont.stderr).toMatch(/only a human can resume/);
    const unknown = cli(home, ['chat', 'post', 'x'], { env: { AGENT_BOARD_SESSION: 'nope' } });
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(/names no session/);
    expect(json('lab')).toHaveLength(1);
  });

  it('--mentions-only reads as the session inside one, as --as outside', () => {
    const alice = fakeSession(home, 'alice', 'lab');
    fakeSession(home, 'bob', 'lab');
    cli(home, ['chat', 'post', '--room', 'lab', '@alice one']);
    cli(home, ['chat', 'post', '--room', 'lab', '@bob two']);
    cli(home, ['chat', 'post', '--room', 'lab', '@all three']);
    cli(home, ['chat', 'post', '@all mine'], { env: { AGENT_BOARD_SESSION: alice } });
    const texts = (r: ChatRecord[]) => r.map((x) => x.text);
    expect(texts(json('lab', ['--mentions-only'], { AGENT_BOARD_SESSION: alice }))).toEqual(['@alice one', '@all three']);
    expect(texts(json('lab', ['--mentions-only', '--as', 'bob']))).toEqual(['@bob two', '@all three', '@all mine']);
    const none = cli(home, ['chat', 'read', '--room', 'lab', '--mentions-only']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/needs a reader/);
    expect(cli(home, ['chat', 'read', '--as', 'bob'], { env: { AGENT_BOARD_SESSION: alice } }).code).toBe(2);
  });

  it('the loop guard: pause at max hops, posts kept while paused, a human /continue resumes', () => {
    const alice = fakeSession(home, 'alice', 'lab');
    const agent = { env: { AGENT_BOARD_SESSION: alice } };
    expect(cli(home, ['chat', 'config', '--room', 'lab', '--max-hops', '3']).code).toBe(2);
    expect(cli(home, ['chat', 'config', '--room', 'lab', '--max-hops', 'ten']).code).toBe(2);
    expect(cli(home, ['chat', 'config', '--room', 'lab', '--max-hops', '4']).stdout).toBe('room lab: max hops 4\n');
    expect(fs.statSync(path.join(home, 'rooms', 'lab', 'room.json')).mode & 0o777).toBe(0o600);
    for (let i = 1; i <= 3; i++) {
      expect(cli(home, ['chat', 'post', `hop ${i}`], agent).stdout).toBe(`posted #${i} to lab\n`);
      expect(cli(home, ['chat', 'rooms']).stdout).toMatch(new RegExp(`^lab {2}#${i} {2}${i} ${i === 1 ? 'hop' : 'hops'} {2}alice$`, 'm'));
    }
    const fourth = cli(home, ['chat', 'post', 'hop 4'], agent);
    expect(fourth.stdout).toMatch(/^posted #4 to lab\n#5 \d\d:\d\d system: loop guard: 4 agent messages without a human; wakes paused\. A human can resume with \/continue \(agent-board chat continue\)\n$/);
    const kept = cli(home, ['chat', 'post', 'hop 5'], agent);
    expect(kept).toMatchObject({ code: 0, stdout: 'posted #6 to lab\n' });
    expect(kept.stderr).toMatch(/paused by the loop guard: the message is kept/);
    expect(cli(home, ['chat', 'post', '--room', 'lab', 'just talking']).stderr).toMatch(/paused/); // a human message alone does not resume
    expect(cli(home, ['chat', 'rooms']).stdout).toMatch(/^lab {2}#7 {2}paused {2}alice$/m);
    const cont = cli(home, ['chat', 'continue', '--room', 'lab', '--from', 'ann']);
    expect(cont.stdout).toMatch(/^#9 \d\d:\d\d system: resumed by ann\n$/);
    expect(json('lab').slice(-2).map((r) => [r.kind, r.text, r.event])).toEqual([['human', '/continue', undefined], ['system', 'resumed by ann', 'resume']]);
    expect(cli(home, ['chat', 'continue', '--room', 'lab']).stdout).toBe('room lab was not paused (posted #10)\n');
    expect(cli(home, ['chat', 'rooms']).stdout).toMatch(/^lab {2}#10 {2}0 hops/m);
  });

  it('tail prints the last messages, then new ones as they are posted', async () => {
    for (let i = 1; i <= 12; i++) cli(home, ['chat', 'post', `m${i}`]);
    const child = spawn(process.execPath, [BIN, 'chat', 'tail'], { env: cliEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    try {
      await waitFor('the backlog', () => out.includes('m12'));
      expect(out).not.toMatch(/m2\n/);
      expect(out.split('\n').filter(Boolean)).toHaveLength(10);
      cli(home, ['chat', 'post', 'fresh']);
      // The folder's watch prints it at once, the poll within POLL_MS (src/cli/chat-tail.ts): either way it comes.
      await waitFor('the new message', () => out.includes('#13'));
      expect(out).toMatch(/#13 \d\d:\d\d human: fresh\n$/);
    } finally {
      child.kill('SIGINT');
    }
  });
});
