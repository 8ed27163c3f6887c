import { describe, expect, it } from 'vitest';
import { flowJsonOf } from './flowJson';

const flow = () => [
  { id: 'start', type: 'start', outcome: 'mail' },
  { id: 'mail', type: 'enter_email', outcomes: { emailEntered: 'end', canceled: 'end' } },
  { id: 'end', type: 'end' },
];

describe('flowJsonOf', () => {
  it('is JSON.stringify of the flow', () => {
    const f = flow();
    expect(flowJsonOf(f)).toBe(JSON.stringify(f));
    expect(flowJsonOf('x')).toBe('"x"');
    expect(flowJsonOf(null)).toBe('null');
  });

  it('recognises a copy of a flow it has seen', () => {
    const first = flowJsonOf(flow());
    const copy = flow();
    expect(flowJsonOf(copy)).toBe(first);
    expect(first).toBe(JSON.stringify(copy));
  });

  it('serialises anything that would print differently: a value, the key order, a class', () => {
    flowJsonOf(flow());
    const change = (i: number, f: (n: Record<string, unknown>) => Record<string, unknown>) =>
      flow().map((n, j) => (j === i ? f(n) : n));
    const variants: unknown[] = [
      change(1, (n) => ({ ...n, outcomes: { emailEntered: 'end', canceled: 'start' } })),
      change(0, (n) => ({ ...n, outcome: 1 })),
      // The same keys in another order print in that order.
      flow().map(({ id, ...n }) => ({ ...n, id })),
      change(2, (n) => ({ ...n, extra: undefined })),
      change(2, (n) => ({ ...n, at: new Date(0) })),
    ];
    for (const v of variants) expect(flowJsonOf(v)).toBe(JSON.stringify(v));
    // A class instance with no keys of its own is not taken for an empty object seen before.
    flowJsonOf(change(2, (n) => ({ ...n, at: {} })));
    const dated = change(2, (n) => ({ ...n, at: new Date(0) }));
    expect(flowJsonOf(dated)).toBe(JSON.stringify(dated));
  });
});
