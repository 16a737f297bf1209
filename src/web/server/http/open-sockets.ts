/**
 * The open WebSockets by device, and the watch that ends a revoked device's at once: devices.json
 * changed (fs.watch on its folder, and a poll in case the file system drops the event), a device
 * with open sockets is gone from it: its sockets close with REVOKED_CLOSE_CODE and the hub is told.
 */
import fs from 'node:fs';
import type { WebSocket } from 'ws';
import type { Time } from '../../../core/clock.js';
import { DisposableStore, toDisposable, type Disposable } from '../../../core/lifetime.js';
import { listDevices, markSeen } from '../auth/devices.js';
import { webDir } from '../web-home.js';

/** The close code of a revoked device's sockets (the page shows the pairing form again). */
export const REVOKED_CLOSE_CODE = 4401;
/** fs.watch can miss an event (some file systems never send one): look this often too, while any socket is open. */
const REVOKE_POLL_MS = 1000;

export class OpenSockets implements Disposable {
  private readonly byDevice = new Map<string, Set<WebSocket>>();
  private readonly store = new DisposableStore();

  constructor(
    private readonly home: string,
    private readonly time: Time,
    /** The hub lets go of the device's state (its terminals, its sends). */
    private readonly revoked: (deviceId: string) => void,
    private readonly log: (line: string) => void,
  ) {
    try {
      const watcher = fs.watch(webDir(home), (_event, name) => {
        if (name === null || name === 'devices.json') this.check();
      });
      watcher.on('error', (e) => log(`watching devices.json failed (the poll goes on): ${e.message}`));
      this.store.add(toDisposable(() => watcher.close()));
    } catch (e) {
      log(`cannot watch devices.json (the poll goes on): ${(e as Error).message}`);
    }
    this.store.add(time.scheduler.setInterval(() => this.check(), REVOKE_POLL_MS));
  }

  add(deviceId: string, ws: WebSocket): void {
    let set = this.byDevice.get(deviceId);
    if (!set) this.byDevice.set(deviceId, (set = new Set()));
    set.add(ws);
    ws.once('close', () => {
      set.delete(ws);
      if (set.size === 0 && this.byDevice.get(deviceId) === set) this.byDevice.delete(deviceId);
    });
  }

  /** Closes the sockets of every device no longer in devices.json; the others are seen now (a page kept open). */
  check(): void {
    if (this.byDevice.size === 0) return;
    let present: Set<string>;
    try {
      present = new Set(listDevices(this.home).map((d) => d.id));
      markSeen(this.home, this.time.clock, [...this.byDevice.keys()].filter((id) => present.has(id)));
    } catch (e) {
      this.log(`cannot read or write devices.json: ${(e as Error).message}`);
      return;
    }
    for (const [id, set] of [...this.byDevice]) {
      if (present.has(id)) continue;
      this.log(`device ${id} revoked: closing its ${set.size} socket(s)`);
      this.byDevice.delete(id);
      for (const ws of set) ws.close(REVOKED_CLOSE_CODE, 'this device was revoked');
      this.revoked(id);
    }
  }

  dispose(): void {
    this.store.dispose();
    for (const set of this.byDevice.values()) for (const ws of set) ws.terminate();
    this.byDevice.clear();
  }
}
