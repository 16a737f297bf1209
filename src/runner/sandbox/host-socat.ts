/**
 * The socat srt starts on the host side of the proxy (its Unix socket to the proxy's TCP port) is a
 * plain child of the runner: a runner killed outright (SIGKILL, the OOM killer) left it running for
 * good, one more per killed runner. srt runs whatever program it is given as socat, so it is given a
 * two-line wrapper that execs socat under `setpriv --pdeathsig KILL`: the kernel ends it when the
 * runner dies, however it dies. Where util-linux's setpriv is missing, srt gets socat as it is.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Disposable } from '../../core/lifetime.js';
import { findProgram } from '../../state/process/find-program.js';

export interface HostSocat extends Disposable {
  /** What srt is to run as socat. */
  readonly program: string;
}

export function hostSocat(socat: string): HostSocat {
  const setpriv = findProgram('setpriv');
  if (!setpriv) return { program: socat, dispose: () => undefined };
  // A folder of its own, only ours (0700): the wrapper is run by the runner, never written by anyone else.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-board-socat-'));
  const program = path.join(dir, 'socat');
  fs.writeFileSync(program, `#!/bin/sh\nexec ${quote(setpriv)} --pdeathsig KILL -- ${quote(socat)} "$@"\n`, { mode: 0o700 });
  return {
    program,
    // srt spawned it long before: removing the script does not touch the process running it.
    dispose: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
