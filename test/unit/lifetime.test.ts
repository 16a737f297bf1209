import { describe, expect, it } from 'vitest';
import { BufferedEmitter, DisposableStore, Emitter, LatchedEmitter, MutableDisposable, toDisposable } from '../../src/core/lifetime.js';
import { FakeTime } from '../helpers/fake-time.js';

describe('the lifetime convention', () => {
  it('a store releases everything once, last added first, and releases late additions at once', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => order.push('socket')));
    store.add(toDisposable(() => order.push('listener')));
    store.dispose();
    store.dispose();
    expect(order).toEqual(['listener', 'socket']);
    store.add(toDisposable(() => order.push('late')));
    expect(order).toEqual(['listener', 'socket', 'late']);
  });

  it('one release that throws does not keep the others held, and its error is not lost', () => {
    const released: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => released.push('a')));
    store.add(toDisposable(() => {
      throw new Error('boom');
    }));
    store.add(toDisposable(() => released.push('c')));
    expect(() => store.dispose()).toThrow('boom');
    expect(released).toEqual(['c', 'a']);
  });

  it('an emitter: the subscription is a Disposable; a throwing listener does not starve the rest', () => {
    const e = new Emitter<number>();
    const got: string[] = [];
    const first = e.event((n) => got.push(`first ${n}`));
    e.event(() => {
      throw new Error('listener failed');
    });
    e.event((n) => got.push(`third ${n}`));
    expect(() => e.fire(1)).toThrow('listener failed');
    first.dispose();
    expect(() => e.fire(2)).toThrow('listener failed');
    expect(got).toEqual(['first 1', 'third 1', 'third 2']);
    e.dispose();
    e.fire(3);
    expect(e.event(() => got.push('after')).dispose).toBeTypeOf('function');
    e.fire(4);
    expect(got).toEqual(['first 1', 'third 1', 'third 2']);
  });

  it('a mutable disposable re-arms a timer: the old one never fires, and dispose cancels the last', () => {
    const time = new FakeTime();
    const fired: string[] = [];
    const timer = new MutableDisposable();
    timer.value = time.setTimeout(() => fired.push('old'), 100);
    timer.value = time.setTimeout(() => fired.push('new'), 100);
    time.advance(100);
    expect(fired).toEqual(['new']);
    timer.value = time.setTimeout(() => fired.push('never'), 100);
    timer.dispose();
    time.advance(1000);
    expect(fired).toEqual(['new']);
    expect(time.pending).toBe(0);
    timer.value = time.setTimeout(() => fired.push('after dispose'), 1);
    time.advance(10);
    expect(fired).toEqual(['new']);
  });

  it('an interval repeats until disposed', () => {
    const time = new FakeTime();
    let n = 0;
    const every = time.setInterval(() => n++, 10);
    time.advance(35);
    expect(n).toBe(3);
    every.dispose();
    time.advance(100);
    expect(n).toBe(3);
  });
});

describe('BufferedEmitter: what came before the first listener is heard by it', () => {
  it('holds events until the first listener, then delivers them in order before new ones', () => {
    const e = new BufferedEmitter<number>();
    e.hold([1]);
    e.fire(2);
    const got: number[] = [];
    e.event((n) => got.push(n));
    e.fire(3);
    expect(got).toEqual([1, 2, 3]);
    const second: number[] = [];
    e.event((n) => second.push(n)); // held ones went to the first listener only
    e.fire(4);
    expect(second).toEqual([4]);
  });

  it('ended, it fires no more, but a late first listener still hears what came before the end', () => {
    const e = new BufferedEmitter<string>();
    e.fire('last words');
    e.dispose();
    e.fire('after the end');
    const got: string[] = [];
    e.event((s) => got.push(s));
    expect(got).toEqual(['last words']);
  });
});

describe('LatchedEmitter: an end that already came is heard at once', () => {
  it('fires once; a listener added after hears the same value at once', () => {
    const e = new LatchedEmitter<string | null>();
    const early: Array<string | null> = [];
    e.event((v) => early.push(v));
    expect(e.fire('gone')).toBe(true);
    expect(e.fire('again')).toBe(false);
    expect(e.fired).toBe(true);
    const late: Array<string | null> = [];
    e.event((v) => late.push(v));
    expect(early).toEqual(['gone']);
    expect(late).toEqual(['gone']);
  });
});
