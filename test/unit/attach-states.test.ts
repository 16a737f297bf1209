/** The attach client's table of states and moves (src/core/attach-states.ts), and its holder (src/client/attach/attach-machine.ts). */
import { describe, expect, it } from 'vitest';
import { attachMove, type AttachEvent, type AttachState } from '../../src/core/attach-states.js';
import { AttachMachine } from '../../src/client/attach/attach-machine.js';

const STATES: AttachState[] = ['connecting', 'subscribing', 'live', 'handing-back', 'reconnecting', 'ended'];
const EVENTS: AttachEvent[] = ['connected', 'frame', 'hand-back', 'dropped', 'end'];

describe('the attach table', () => {
  it('has exactly these moves', () => {
    const table: Record<string, string> = {};
    for (const from of STATES) {
      for (const on of EVENTS) {
        const m = attachMove(from, on);
        if (m.ok) table[`${from} --${on}-->`] = m.to;
      }
    }
    expect(table).toEqual({
      'connecting --connected-->': 'subscribing',
      'connecting --end-->': 'ended',
      'subscribing --frame-->': 'live',
      'subscribing --hand-back-->': 'handing-back',
      'subscribing --dropped-->': 'reconnecting',
      'subscribing --end-->': 'ended',
      'live --frame-->': 'live',
      'live --hand-back-->': 'handing-back',
      'live --dropped-->': 'reconnecting',
      'live --end-->': 'ended',
      'reconnecting --connected-->': 'subscribing',
      'reconnecting --end-->': 'ended',
      'handing-back --frame-->': 'handing-back',
      'handing-back --end-->': 'ended',
    });
  });

  it('refuses anything else as an error value, and nothing leaves ended', () => {
    expect(attachMove('ended', 'end')).toEqual({ ok: false, message: "attach: 'end' while ended is not a legal move" });
    expect(attachMove('reconnecting', 'frame').ok).toBe(false); // an old connection's frame never reaches a reconnecting attach
    expect(attachMove('handing-back', 'dropped').ok).toBe(false); // the hand-back's end is an `end`, made by the client
    for (const on of EVENTS) expect(attachMove('ended', on).ok).toBe(false);
  });

  it('every state but ended can end, and every state is reached from connecting', () => {
    for (const from of STATES.filter((s) => s !== 'ended')) expect(attachMove(from, 'end')).toEqual({ ok: true, to: 'ended' });
    const seen = new Set<AttachState>(['connecting']);
    for (let grew = true; grew; ) {
      grew = false;
      for (const from of [...seen]) {
        for (const on of EVENTS) {
          const m = attachMove(from, on);
          if (m.ok && !seen.has(m.to)) {
            seen.add(m.to);
            grew = true;
          }
        }
      }
    }
    expect([...seen].sort()).toEqual([...STATES].sort());
  });
});

describe('AttachMachine', () => {
  it('makes legal moves and tells each; refuses an illegal one, stays, and tells it as an error', () => {
    const m = new AttachMachine();
    const moves: string[] = [];
    const refused: string[] = [];
    m.onChange((c) => moves.push(`${c.from}>${c.to}`));
    m.onIllegalMove((e) => refused.push(e));
    expect(m.move('connected')).toEqual({ ok: true, to: 'subscribing' });
    m.move('frame');
    m.move('dropped');
    expect(m.move('frame')).toEqual({ ok: false, message: "attach: 'frame' while reconnecting is not a legal move" });
    expect(m.state).toBe('reconnecting');
    m.move('end');
    m.move('end');
    expect(moves).toEqual(['connecting>subscribing', 'subscribing>live', 'live>reconnecting', 'reconnecting>ended']);
    expect(refused).toEqual(["attach: 'frame' while reconnecting is not a legal move", "attach: 'end' while ended is not a legal move"]);
  });
});
