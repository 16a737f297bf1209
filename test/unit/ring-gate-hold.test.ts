import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { AttachOutput } from '../../src/client/attach/attach.js';
import { RingGate } from '../../src/ui/ring-gate.js';

const terminal = () => {
  const written: string[] = [];
  const out = Object.assign(new EventEmitter(), { write: (d: string) => written.push(d) > 0 }) as unknown as AttachOutput;
  return { out, written };
};

describe('RingGate while the runner writes to the terminal itself (direct output)', () => {
  it('holds rings until the terminal is handed back', () => {
    const { out, written } = terminal();
    const gate = new RingGate(out);
    gate.hold(true);
    gate.ring('\x07');
    expect(written).toEqual([]);
    gate.hold(false);
    expect(written).toEqual(['\x07']);
  });

  it('lets them go when the attach ends, and still waits for the end of a sequence otherwise', () => {
    const { out, written } = terminal();
    const gate = new RingGate(out);
    gate.hold(true);
    gate.ring('\x07');
    gate.reset();
    expect(written).toEqual(['\x07']);
    gate.output.write('\x1b]0;tit');
    gate.ring('\x07');
    expect(written).toEqual(['\x07', '\x1b]0;tit']);
    gate.output.write('le\x07');
    expect(written).toEqual(['\x07', '\x1b]0;tit', 'le\x07', '\x07']);
  });
});
