import { describe, expect, it } from 'vitest';
import { createMemoryDeduplicationStore } from './dedupe';

describe('createMemoryDeduplicationStore', () => {
  it('remembers ids it was given and nothing else', () => {
    const s = createMemoryDeduplicationStore();
    s.add('evt_1');
    expect(s.has('evt_1')).toBe(true);
    expect(s.has('evt_2')).toBe(false);
  });

  it('forgets an id after its time to live', () => {
    let now = 1_000;
    const s = createMemoryDeduplicationStore({ ttlMs: 100, now: () => now });
    s.add('a');
    now = 1_099;
    expect(s.has('a')).toBe(true);
    now = 1_100;
    expect(s.has('a')).toBe(false);
    expect(s.size).toBe(0);
  });

  it('keeps at most maxEntries, forgetting the oldest first', () => {
    const s = createMemoryDeduplicationStore({ maxEntries: 3 });
    for (const id of ['a', 'b', 'c', 'd']) s.add(id);
    expect(['a', 'b', 'c', 'd'].map((id) => s.has(id))).toEqual([false, true, true, true]);
    s.add('b'); // seen again: now the newest
    s.add('e');
    expect(['b', 'c', 'd', 'e'].map((id) => s.has(id))).toEqual([true, false, true, true]);
  });

  it('refuses a zero size', () => {
    expect(() => createMemoryDeduplicationStore({ maxEntries: 0 })).toThrow();
  });
});
