import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { flowIdentity } from './flowIdentity';

const FLOW = [
  { id: 'start', type: 'start', outcome: 'mail' },
  { id: 'mail', type: 'enter_email', outcomes: { emailEntered: 'end', canceled: 'end' } },
  { id: 'end', type: 'end' },
];

describe('flowIdentity', () => {
  it('is the SHA-256 of the canonical JSON, and flow_ + its first 16 hex characters', () => {
    const canonical =
      '[{"id":"start","outcome":"mail","type":"start"},' +
      '{"id":"mail","outcomes":{"canceled":"end","emailEntered":"end"},"type":"enter_email"},' +
      '{"id":"end","type":"end"}]';
    const hash = createHash('sha256').update(canonical).digest('hex');
    expect(flowIdentity(FLOW)).toEqual({ hash, flowId: `flow_${hash.slice(0, 16)}` });
  });

  it('is the same whatever the key order, and differs with the content', () => {
    const reordered = FLOW.map((n) => Object.fromEntries(Object.entries(n).reverse()));
    expect(flowIdentity(reordered)).toEqual(flowIdentity(FLOW));
    const changed = FLOW.map((n) => (n.id === 'end' ? { ...n, id: 'done' } : n));
    expect(flowIdentity(changed).hash).not.toBe(flowIdentity(FLOW).hash);
  });
});
