/**
 * Two remote machines for the board's --host tests, from one test sshd (test/helpers/sshd.ts):
 * an ssh config whose Host aliases `alpha` and `beta` reach it with a different
 * AGENT_BOARD_HOME each (SetEnv, which the test sshd accepts), `down` a closed port, and
 * `old` a home whose agent-board answers `feed` as one without that command would.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeHome, ROOT } from './home.js';
import { freePort, type Sshd } from './sshd.js';

export interface TwoHosts {
  homes: { alpha: string; beta: string; old: string };
  /** The client side's environment: AGENT_BOARD_SSH_OPTS and AGENT_BOARD_REMOTE_COMMAND. */
  env: Record<string, string>;
  dispose(): void;
}

export async function twoHosts(sshd: Sshd): Promise<TwoHosts> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-hosts-'));
  const homes = { alpha: makeHome('ab-alpha-'), beta: makeHome('ab-beta-'), old: makeHome('ab-old-') };
  const closed = await freePort();
  const user = os.userInfo().username;
  const common = [
    `  HostName 127.0.0.1`,
    `  User ${user}`,
    `  IdentityFile ${sshd.key}`,
    '  IdentitiesOnly yes',
    '  StrictHostKeyChecking no',
    '  UserKnownHostsFile /dev/null',
    '  LogLevel ERROR',
  ];
  const config = [
    ...(['alpha', 'beta'] as const).flatMap((h) => [`Host ${h}`, `  Port ${sshd.port}`, `  SetEnv AGENT_BOARD_HOME=${homes[h]}`, ...common]),
    'Host old',
    `  Port ${sshd.port}`,
    `  SetEnv AGENT_BOARD_HOME=${homes.old} AGENT_BOARD_TEST_OLD=1`,
    ...common,
    'Host down',
    `  Port ${closed}`,
    ...common,
  ];
  const file = path.join(dir, 'ssh_config');
  fs.writeFileSync(file, config.join('\n') + '\n', { mode: 0o600 });
  // What runs over there: this checkout's CLI, or, on `old`, one that does not know `feed` (commander's error).
  const program = path.join(dir, 'agent-board');
  const main = path.join(ROOT, 'dist', 'cli', 'main.js');
  fs.writeFileSync(
    program,
    [
      '#!/bin/sh',
      `if [ -n "$AGENT_BOARD_TEST_OLD" ] && [ "$1" = feed ]; then echo "error: unknown option '--json'" >&2; echo '(add --help for usage)' >&2; exit 2; fi`,
      `exec ${process.execPath} ${main} "$@"`,
    ].join('\n') + '\n',
    { mode: 0o755 },
  );
  return {
    homes,
    env: { AGENT_BOARD_SSH_OPTS: `-F ${file}`, AGENT_BOARD_REMOTE_COMMAND: program },
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
