import { describe, expect, it } from 'vitest';
import { warmer } from './warmDetector';

function loads(results: ('ok' | 'fail')[]) {
  const made: { id: number; closed: boolean }[] = [];
  let calls = 0;
  const load = () => {
    const result = results[calls++] ?? 'ok';
    if (result === 'fail') return Promise.reject(new Error('offline'));
    const item = { id: calls, closed: false, close: () => (item.closed = true) };
    made.push(item);
    return Promise.resolve(item);
  };
  return { load, made, calls: () => calls };
}

describe('warmer', () => {
  it('hands the instance made ahead of time to the first taker, and a fresh one to the next', async () => {
    const l = loads([]);
    const w = warmer(l.load);
    w.warm();
    w.warm();
    expect(l.calls()).toBe(1);
    expect((await w.take()).id).toBe(1);
    expect((await w.take()).id).toBe(2);
    expect(l.calls()).toBe(2);
  });

  it('loads when nothing was warmed', async () => {
    const l = loads([]);
    expect((await warmer(l.load).take()).id).toBe(1);
  });

  it('loads again for the taker when the warm load failed', async () => {
    const l = loads(['fail', 'ok']);
    const w = warmer(l.load);
    w.warm();
    const taken = await w.take();
    expect(taken.id).toBe(2);
    expect(l.calls()).toBe(2);
  });

  it('warms again after a warm load failed before anyone took it', async () => {
    const l = loads(['fail', 'ok']);
    const w = warmer(l.load);
    w.warm();
    await Promise.resolve();
    await Promise.resolve();
    w.warm();
    expect(l.calls()).toBe(2);
    expect((await w.take()).id).toBe(2);
  });
});
