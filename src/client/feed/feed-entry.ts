/** One session as the board feed (src/client/feed/board-feed.ts) holds it, and what the feed asks of one. */
import type { HostRecord } from '../../core/protocol/host-record.js';
import type { SessionView } from '../../state/host-store.js';
import type { PreviewTarget } from './feed-preview.js';
import type { StatusLink } from './status-link.js';

export interface Entry {
  id: string;
  record: HostRecord;
  view: SessionView;
  /** Status pushes from the runner, or a watch on the folder while there are none. */
  link: StatusLink;
}

/** A session with a runner to talk to: running or starting, or lost only for want of an answer (its runner runs: asked again at each sweep). */
export const live = (e: Entry): boolean => e.view.status === 'running' || e.view.status === 'starting' || e.view.heartbeatStale === true;

/** What the preview needs of a session. */
export function target(e: Entry): PreviewTarget {
  return { id: e.id, live: live(e), cols: e.view.cols, rows: e.view.rows, finalCols: e.record.cols, finalRows: e.record.rows };
}
