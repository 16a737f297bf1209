/** Attaching the terminal to a session (`attach`, and `new --attach`): the full screen, then one line on how it ended. */
import fs from 'node:fs';
import { attachHintWanted, runAttach } from '../client/attach/attach.js';
import { attachEndMessage, remoteConnector, sessionConnector } from '../client/attach/attach-session.js';
import { parseHost } from '../client/remote/remote.js';
import { terminalIdentity } from '../client/attach/tty-identity.js';
import type { DetachKey } from '../core/terminal/detach-key.js';
import { endedText, findSession } from '../client/session/sessions.js';
import { DEFAULT_DETACH_KEY, parseDetachKey } from '../core/terminal/detach-key.js';
import { AltScreenTracker, freshLine, terminalRestoreSequence } from '../core/terminal/terminal-restore.js';
import { EXIT, UserError } from '../state/errors.js';
import { listSessions, type SessionView } from '../state/host-store.js';
import { finalScreenFile, runnerLog } from '../state/paths.js';
import { cliTime } from './cli-time.js';
import { getHome } from './context.js';

export interface AttachCliOptions {
  readOnly?: boolean;
  detachKey?: string;
  host?: string;
}

export async function attachTo(ref: string, o: AttachCliOptions): Promise<void> {
  const parsed = parseDetachKey(o.detachKey ?? process.env.AGENT_BOARD_DETACH_KEY ?? DEFAULT_DETACH_KEY);
  if (!parsed.ok) throw new UserError(parsed.message, EXIT.usage);
  if (o.host) return attachRemote(o.host, ref, parsed.key, o.readOnly);
  const home = getHome();
  const s = findSession(home, ref);
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UserError('attach needs a terminal; to read the screen from a script use: agent-board peek ' + s.name, EXIT.usage);
  }
  if (s.status === 'exited') {
    showFinalScreen(home, s.id);
    process.stdout.write(`${s.name} ${endedText(s)}\n`);
    return;
  }
  const time = cliTime();
  // The first connect goes by the session just found, and its first subscribe with the hello.
  const connect = sessionConnector(home, s, time, o.readOnly, true);
  const result = await runAttach({
    scheduler: time.scheduler,
    connect,
    firstConnect: connect,
    input: process.stdin,
    output: process.stdout,
    // A local terminal: the runner may write the output to it itself (direct output); over --host never.
    terminal: terminalIdentity(process.stdout),
    detachKey: parsed.key,
    readOnly: o.readOnly,
    hint: attachHintWanted(process.env),
  });
  switch (result.reason) {
    case 'detached':
    case 'exited':
      process.stdout.write(`\r\n\x1b[J${attachEndMessage(s.name, result)}\r\n`);
      return;
    case 'lost':
      // The terminal is restored; the line goes under what the program left, not onto its prompt.
      process.stdout.write(freshLine(process.stdout.columns ?? 80));
      throw new UserError(lostAdvice(home, s), EXIT.runnerDied);
  }
}

/**
 * Why an attach could not go on, and what to do, from what the session is now: a runner that is
 * gone leaves the session lost (revive brings it back in place); one that still runs but does not
 * answer is for its log.
 */
function lostAdvice(home: string, s: SessionView): string {
  const now = listSessions(home).find((x) => x.id === s.id);
  if (!now) return `${s.name} was removed while attached`;
  if (now.status === 'lost') return `${s.name}'s runner is gone, and the attach with it; bring the session back with: agent-board revive ${s.name}`;
  if (now.status === 'exited') return `${s.name} ${endedText(now)} while the connection was down`;
  return `lost the connection to ${s.name} and could not reconnect, though its runner still runs; see ${runnerLog(home, s.id)}`;
}

/** attach --host: the same full screen, with the connection going through ssh (see src/client/remote/remote.ts). */
async function attachRemote(host: string, ref: string, detachKey: DetachKey, readOnly?: boolean): Promise<void> {
  parseHost(host);
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UserError(`attach needs a terminal; to read the screen from a script use: agent-board peek --host ${host} ${ref}`, EXIT.usage);
  }
  const time = cliTime();
  const remote = remoteConnector(host, ref, time, readOnly);
  const result = await runAttach({ scheduler: time.scheduler, connect: remote.connect, input: process.stdin, output: process.stdout, detachKey, readOnly, hint: attachHintWanted(process.env) });
  const name = `${remote.session()?.name ?? ref} on ${host}`;
  if (result.reason === 'lost') {
    process.stdout.write(freshLine(process.stdout.columns ?? 80));
    // Whether the runner there died or the link did, ls there says; revive there brings a lost one back.
    const id = remote.session()?.id ?? ref;
    throw new UserError(`${result.message} (${name}); check it with: agent-board ls --host ${host}; if it is lost there: ssh ${host} agent-board revive ${id}`, EXIT.runnerDied);
  }
  process.stdout.write(`\r\n\x1b[J${attachEndMessage(name, result)}\r\n`);
}

function showFinalScreen(home: string, id: string): void {
  try {
    const frame = fs.readFileSync(finalScreenFile(home, id), 'utf8');
    // The frame may switch screens more than once (to restore both screens' modes): follow it.
    const alt = new AltScreenTracker();
    alt.feed(frame);
    process.stdout.write('\x1b[H\x1b[2J' + frame + terminalRestoreSequence(alt.active) + '\r\n');
  } catch {
    // nothing saved: the status line the caller prints is all there is
  }
}
