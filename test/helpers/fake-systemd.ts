/**
 * A fake systemd world for one test: a bin folder with the fake systemd-run, loginctl and
 * systemctl of test/fixtures/systemd (real child processes that record their argv), a runtime
 * dir whose systemd/private stands for a user manager, and a linger folder. `env()` is what the
 * CLI is run with; without `manager` no private socket is there, as on a machine without systemd.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './home.js';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'systemd');

export interface FakeSystemd {
  dir: string;
  env(extra?: Record<string, string>): Record<string, string>;
  /** The argv of each systemd-run call, by the pid it ran as. */
  runs(): Map<number, string[]>;
  set(file: 'linger' | 'kill-user-processes' | 'refuse' | 'no-logind', value: string | null): void;
  /** A logind.conf drop-in (null: none), as an administrator would write it. */
  logindConf(text: string | null): void;
  dispose(): void;
}

export function fakeSystemd(o: { manager?: boolean; linger?: boolean; tools?: boolean } = {}): FakeSystemd {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-systemd-'));
  const bin = path.join(dir, 'bin');
  const runtime = path.join(dir, 'runtime');
  const systemRoot = path.join(dir, 'root'); // AGENT_BOARD_TEST_SYSTEM_ROOT: its var/lib/systemd/linger and etc/systemd
  const lingerDir = path.join(systemRoot, 'var', 'lib', 'systemd', 'linger');
  fs.mkdirSync(bin);
  fs.mkdirSync(path.join(runtime, 'systemd'), { recursive: true, mode: 0o700 });
  fs.mkdirSync(lingerDir, { recursive: true });
  fs.mkdirSync(path.join(systemRoot, 'etc', 'systemd', 'logind.conf.d'), { recursive: true });
  if (o.tools !== false) for (const tool of fs.readdirSync(FIXTURES)) fs.symlinkSync(path.join(FIXTURES, tool), path.join(bin, tool));
  if (o.manager !== false) fs.writeFileSync(path.join(runtime, 'systemd', 'private'), '');
  const user = os.userInfo().username;
  const fake: FakeSystemd = {
    dir,
    env: (extra = {}) => ({
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      XDG_RUNTIME_DIR: runtime,
      AGENT_BOARD_TEST_SYSTEM_ROOT: systemRoot,
      FAKE_SYSTEMD_DIR: dir,
      ...extra,
    }),
    runs: () => {
      const out = new Map<number, string[]>();
      for (const f of fs.readdirSync(dir)) {
        const m = /^systemd-run\.(\d+)$/.exec(f);
        if (m) out.set(Number(m[1]), fs.readFileSync(path.join(dir, f), 'utf8').replace(/\n$/, '').split('\n'));
      }
      return out;
    },
    set: (file, value) => {
      const p = path.join(dir, file);
      if (value === null) fs.rmSync(p, { force: true });
      else fs.writeFileSync(p, value);
      // logind keeps linger as a flag file; the fake loginctl reads the value file.
      if (file === 'linger') {
        const flag = path.join(lingerDir, user);
        if (value === 'yes') fs.writeFileSync(flag, '');
        else fs.rmSync(flag, { force: true });
      }
    },
    logindConf: (text) => {
      const p = path.join(systemRoot, 'etc', 'systemd', 'logind.conf.d', '50-test.conf');
      if (text === null) fs.rmSync(p, { force: true });
      else fs.writeFileSync(p, text);
    },
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
  if (o.linger !== false) fake.set('linger', 'yes');
  return fake;
}
