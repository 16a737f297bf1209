/** Who reads an attach's keys (src/client/attach/attach-keys.ts), on a real stream that keeps what it is given while paused. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AttachKeys } from '../../src/client/attach/attach-keys.js';

function setup() {
  const input = new PassThrough({ encoding: 'utf8' });
  const got: string[] = [];
  const keys = new AttachKeys(input, (k) => got.push(k));
  const tick = () => new Promise((r) => setImmediate(r));
  return { input, got, keys, tick };
}

describe('AttachKeys', () => {
  it('gives out what the stream already holds before the runner reads, then nothing until released', async () => {
    const { input, got, keys, tick } = setup();
    input.pause();
    input.unshift('typeahead');
    keys.listen();
    keys.hold();
    expect(got).toEqual(['typeahead']);
    keys.go();
    input.write('while-the-runner-reads');
    await tick();
    expect(got).toEqual(['typeahead']);
    keys.release();
    await tick();
    expect(got).toEqual(['typeahead', 'while-the-runner-reads']);
  });

  it('flows at once when the runner is never asked', async () => {
    const { input, got, keys, tick } = setup();
    keys.listen();
    keys.go();
    input.write('abc');
    await tick();
    expect(got).toEqual(['abc']);
  });

  it('puts keys back for the next reader and gives nothing out after it ends', async () => {
    const { input, got, keys, tick } = setup();
    keys.listen();
    keys.hold();
    keys.go();
    keys.putBack('q');
    keys.dispose();
    keys.release(); // a connection closing after the end does not resume the stream
    await tick();
    expect(got).toEqual([]);
    expect(input.read()).toBe('q');
  });
});
