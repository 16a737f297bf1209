import { listSessions, type SessionView } from '../state/host-store.js';
import { SessionExitedError, type AttachResult } from './attach.js';
import type { RunnerConnection } from './connection.js';
import { connectSession } from './sessions.js';

/**
 * The connect function an attach to `s` uses, first time and on every
 * reconnect: it reads the session afresh, so a session that exited while we
 * were away ends the attach (SessionExitedError) instead of failing to connect.
 */
export function sessionConnector(home: string, s: SessionView, readOnly = false): () => Promise<RunnerConnection> {
  return async () => {
    const now = listSessions(home).find((x) => x.id === s.id);
    if (now?.status === 'exited') throw new SessionExitedError(now.exitCode, now.exitSignal);
    return connectSession(home, now ?? s, 'attach', readOnly);
  };
}

/** What the user is told when an attach ends: `detached from NAME`, `NAME exited with code N`. */
export function attachEndMessage(name: string, r: AttachResult): string {
  switch (r.reason) {
    case 'detached':
      return `detached from ${name}`;
    case 'exited':
      return `${name} exited ${r.signal ? `(killed by ${r.signal})` : `with code ${r.code}`}`;
    case 'lost':
      return `${r.message} (${name})`;
  }
}
