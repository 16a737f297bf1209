import { describe, expect, it } from 'vitest';
import { JiggleChain } from '../../src/client/attach/jiggle-chain.js';
import { BACKOFF_MS } from '../../src/core/terminal/jiggle-retry.js';
import { FakeTime } from '../helpers/fake-time.js';

function setup() {
  const clock = new FakeTime(0);
  const jiggles: number[] = [];
  const chain = new JiggleChain(['\x1b[2J'], () => jiggles.push(clock.now()), clock);
  return { clock, jiggles, chain };
}

describe('JiggleChain', () => {
  it('jiggles at once, then after each backoff step, then gives up', () => {
    const { clock, jiggles, chain } = setup();
    chain.start();
    clock.advance(20_000);
    const expected = [0];
    let t = 0;
    for (const d of BACKOFF_MS) expected.push((t += d));
    expect(jiggles).toEqual(expected); // 0, 120, 620, 2120, 5120
    expect(chain.running).toBe(false);
    expect(chain.settled).toBe(false);
  });

  it('stops as soon as the settle marker shows in the output, even split across chunks', () => {
    const { clock, jiggles, chain } = setup();
    chain.start();
    clock.advance(150); // initial + first retry
    chain.feed('partial frame \x1b[');
    chain.feed('2J full render');
    expect(chain.settled).toBe(true);
    expect(clock.pending).toBe(0);
    clock.advance(10_000);
    expect(jiggles).toHaveLength(2);
  });

  it('output without the marker does not stop it', () => {
    const { clock, jiggles, chain } = setup();
    chain.start();
    chain.feed('\x1b[H\x1b[2Kspinner');
    clock.advance(700);
    expect(jiggles).toHaveLength(3);
  });

  it('stop() (the attach closed) cancels the pending retry', () => {
    const { clock, jiggles, chain } = setup();
    chain.start();
    chain.stop();
    clock.advance(10_000);
    expect(jiggles).toEqual([0]);
    expect(clock.pending).toBe(0);
  });

  it('restarts from the beginning after a reconnect, with one timer only', () => {
    const { clock, jiggles, chain } = setup();
    chain.start();
    clock.advance(700);
    chain.start();
    expect(clock.pending).toBe(1);
    clock.advance(120);
    expect(jiggles.slice(-2)).toEqual([700, 820]);
    expect(chain.retries).toBe(1);
  });

  it('feeding after it settled or stopped changes nothing', () => {
    const { chain } = setup();
    chain.feed('\x1b[2J');
    expect(chain.settled).toBe(false); // never started
    chain.start();
    chain.feed('\x1b[2J');
    chain.feed('more');
    expect(chain.settled).toBe(true);
  });
});
