/** How an attach reaches its session, local or over ssh, first time and on every reconnect; and how it ended, in words. */
import { listSessions, type SessionView } from '../../state/host-store.js';
import { SessionExitedError, type AttachResult } from './attach.js';
import type { ClientMessage } from '../../core/protocol/client-messages.js';
import type { HostRecord } from '../../core/protocol/host-record.js';
import type { Time } from '../../core/clock.js';
import type { RunnerConnection } from '../link/connection.js';
import { connectRemote, listRemote, RemoteError } from '../remote/remote.js';
import { connectSession } from '../session/sessions.js';

/**
 * The connect function an attach to `s` uses, first time and on every
 * reconnect: it reads the session afresh, so a session that exited while we
 * were away ends the attach (SessionExitedError) instead of failing to connect.
 * `justRead`: `s` was read a moment ago (the command's own lookup), and the
 * first connect goes by it rather than read the session list again.
 * `pipelined`: what goes with the hello (ConnectOptions.pipelined).
 */
export function sessionConnector(home: string, s: SessionView, time: Time, readOnly = false, justRead = false): (pipelined?: readonly ClientMessage[]) => Promise<RunnerConnection> {
  let fresh = justRead;
  return async (pipelined) => {
    const now = fresh ? s : listSessions(home).find((x) => x.id === s.id);
    fresh = false;
    if (now?.status === 'exited') throw new SessionExitedError(now.exitCode, now.exitSignal, now.killed);
    return connectSession(home, now ?? s, 'attach', time, readOnly, pipelined);
  };
}

/**
 * The connect function of an attach over ssh. After the first connection it
 * asks for the session by id, so a reconnect finds the same one even if the
 * ref has become ambiguous there; when a reconnect is refused by the remote
 * (not by ssh), the remote list says whether the session exited meanwhile.
 */
export function remoteConnector(host: string, ref: string, time: Time, readOnly = false): { connect: () => Promise<RunnerConnection>; session: () => HostRecord | null } {
  let known: HostRecord | null = null;
  const connect = async () => {
    try {
      const conn = await connectRemote(host, known?.id ?? ref, { client: 'attach', readOnly, scheduler: time.scheduler });
      known = conn.hello.host;
      return conn;
    } catch (err) {
      if (known && err instanceof RemoteError && !err.sshFailed) {
        const id = known.id;
        const now = (await listRemote(host, time.scheduler).catch(() => [])).find((x) => x.id === id);
        if (now?.status === 'exited') throw new SessionExitedError(now.exitCode, now.exitSignal, now.killed);
      }
      throw err;
    }
  };
  return { connect, session: () => known };
}

/** What the user is told when an attach ends: `detached from NAME`, `NAME exited with code N`. */
export function attachEndMessage(name: string, r: AttachResult): string {
  switch (r.reason) {
    case 'detached':
      return `detached from ${name}`;
    case 'exited':
      // A kill someone asked for (kill, the board's x, restart) is no failure: it says so.
      if (r.killed) return `${name} was killed (${r.signal ?? `exit code ${r.code}`})`;
      return `${name} exited ${r.signal ? `(killed by ${r.signal})` : `with code ${r.code}`}`;
    case 'lost':
      return `${r.message} (${name})`;
  }
}
