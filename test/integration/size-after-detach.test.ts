/**
 * An attach borrows the session's size and gives it back (src/runner/clients/size-policy.ts), against a
 * real runner and PTY: the program sees the attach's size, then the one from before when it
 * detaches, while the board (status pushes, no size) and a small read-only viewer size nothing;
 * and with a board that offers its terminal's size, the board's size after the detach.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StatusMsg } from '../../src/core/protocol/runner-messages.js';
import { cli, destroyHome, makeHome, newSession, waitFor } from '../helpers/home.js';
import { RawClient } from '../helpers/raw-client.js';

let home: string;
beforeEach(() => {
  home = makeHome();
});
afterEach(() => destroyHome(home));

/** The sizes the program was told, in order: it prints `stty size` at start and on every SIGWINCH. */
const sizes = (id: string) => cli(home, ['peek', id]).stdout.split('\n').filter((l) => /^size \d+ \d+$/.test(l));

describe('the size after a detach (real runner)', () => {
  it('goes back to what it was before the attach; the board and a read-only viewer never size it', async () => {
    const id = newSession(home, ['--name', 'sz', '--', 'sh', '-c', "trap 'echo size $(stty size)' WINCH; echo size $(stty size); while :; do sleep 0.05; done"]);
    await waitFor('its first size', () => sizes(id).length === 1);
    expect(sizes(id)).toEqual(['size 24 80']);

    // The board: status pushes, no size.
    const board = await RawClient.hello(home, id, { client: 'board', readOnly: true });
    board.send({ type: 'subscribe_status' });
    await board.next((m) => m.type === 'status');

    const attach = await RawClient.hello(home, id, { client: 'attach' });
    attach.send({ type: 'subscribe_terminal', cols: 100, rows: 20 });
    await attach.next((m) => m.type === 'snapshot_begin');
    await board.next((m) => m.type === 'status' && (m as StatusMsg).host.cols === 100);
    // A phone watching read-only, at its own small size: nothing changes.
    const phone = await RawClient.hello(home, id, { client: 'attach', readOnly: true });
    phone.send({ type: 'subscribe_terminal', cols: 40, rows: 10 });
    await phone.next((m) => m.type === 'snapshot_begin');
    phone.send({ type: 'detach' });
    await phone.next((m) => m.type === 'bye');
    await waitFor('the program told the attach size', () => sizes(id).length === 2);

    attach.send({ type: 'detach' });
    await attach.next((m) => m.type === 'bye');
    const back = await board.next<StatusMsg>((m) => m.type === 'status' && (m as StatusMsg).host.cols !== 100);
    expect([back.host.cols, back.host.rows]).toEqual([80, 24]);
    await waitFor('the program told the size from before', () => sizes(id).length === 3);
    expect(sizes(id), cli(home, ['peek', id]).stdout).toEqual(['size 24 80', 'size 20 100', 'size 24 80']);
    board.close();
  });

  it('after a detach, takes the size of the board that watches it (its view), never smaller than the largest board; looking alone sizes nothing', async () => {
    const id = newSession(home, ['--name', 'sv', '--', 'sh', '-c', "trap 'echo size $(stty size)' WINCH; echo size $(stty size); while :; do sleep 0.05; done"]);
    await waitFor('its first size', () => sizes(id).length === 1);

    // Two boards: a desktop one at 150x45 and a phone-sized one at 50x20; neither sizes it by looking.
    const desk = await RawClient.hello(home, id, { client: 'board', readOnly: true });
    desk.send({ type: 'subscribe_status', view: { cols: 150, rows: 45 } });
    await desk.next((m) => m.type === 'status');
    const small = await RawClient.hello(home, id, { client: 'board', readOnly: true });
    small.send({ type: 'subscribe_status', view: { cols: 50, rows: 20 } });
    await small.next((m) => m.type === 'status');
    expect(sizes(id)).toEqual(['size 24 80']);

    // An attach from a 100x20 terminal elsewhere, then its detach: the session fills the desktop board.
    const attach = await RawClient.hello(home, id, { client: 'attach' });
    attach.send({ type: 'subscribe_terminal', cols: 100, rows: 20 });
    await attach.next((m) => m.type === 'snapshot_begin');
    await desk.next((m) => m.type === 'status' && (m as StatusMsg).host.cols === 100);
    attach.send({ type: 'detach' });
    await attach.next((m) => m.type === 'bye');
    const after = await desk.next<StatusMsg>((m) => m.type === 'status' && (m as StatusMsg).host.cols !== 100);
    expect([after.host.cols, after.host.rows]).toEqual([150, 45]);
    await waitFor('the program told the board size', () => sizes(id).length === 3);
    expect(sizes(id)).toEqual(['size 24 80', 'size 20 100', 'size 45 150']);
    desk.close();
    small.close();
  });
});
