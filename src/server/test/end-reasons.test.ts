import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../clock';
import { startHarness, type Harness } from './harness';

// Every fixed outcome routed nowhere: each one the page reports ends the session incomplete.
const FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  { id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'ask' } },
  {
    id: 'ask',
    type: 'conversation',
    prompt: 'Say: Shall we go on?',
    outcomes: [
      { id: 'yes', condition: 'The user agrees', targetNodeId: 'live' },
      { id: 'no', condition: 'The user says no' },
    ],
  },
  { id: 'live', type: 'liveness_detection', outcomes: { livenessDetected: 'otp' } },
  { id: 'otp', type: 'two_factor_email', outcomes: { verified: 'done' } },
  { id: 'done', type: 'end' },
];

const clock = manualClock(Date.UTC(2025, 9, 1, 9));
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ clock, rateLimits: false });
});
afterAll(async () => {
  await h.close();
});

/** A test session opened by the page, and a way to call its client routes. */
async function opened() {
  const made = await h.call('POST', '/sessions', {
    key: h.keys.test,
    body: { flow: FLOW, providedData: { email: 'jane@example.com' } },
  });
  const ex = await h.call('POST', '/client/exchange', {
    key: null,
    body: { clientSecret: made.body.clientSecret.secret },
  });
  const token = ex.body.token as string;
  return (method: string, path: string, body?: unknown) =>
    h.call(method, `/client${path}`, { key: token, ...(body !== undefined ? { body } : {}) });
}

/** Walks the flow to `nodeId` with the outcomes that lead on, in test mode. */
async function at(nodeId: string) {
  const c = await opened();
  const steps: [string, string][] = [
    ['perm', 'permissionsGranted'],
    ['ask', 'yes'],
    ['live', 'livenessDetected'],
  ];
  for (const [node, outcome] of steps) {
    if (node === nodeId) break;
    await c('POST', `/nodes/${node}/result`, { outcome });
  }
  return c;
}

describe("the end reason of the page's position", () => {
  it('names what happened in the user’s terms, for each ending', async () => {
    const reasonAfter = async (nodeId: string, outcome: string) => {
      const c = await at(nodeId);
      const r = await c('POST', `/nodes/${nodeId}/result`, { outcome });
      expect(r.body.position.status).toBe('incomplete');
      return r.body.position.endReason as string;
    };
    expect(await reasonAfter('perm', 'permissionsDenied')).toBe('noCamera');
    expect(await reasonAfter('otp', 'failed_unverified')).toBe('codeNotConfirmed');
    expect(await reasonAfter('live', 'deepfakeDetected')).toBe('stepNotCompleted');
    expect(await reasonAfter('live', 'noFace')).toBe('stepNotCompleted');
  });

  it('a conversation whose reply leads nowhere has stopped', async () => {
    const c = await at('ask');
    const r = await c('POST', '/nodes/ask/reply', { text: 'no thanks' });
    expect(r.body.outcome).toBe('no');
    expect(r.body.position).toMatchObject({ status: 'incomplete', endReason: 'stopped' });
  });

  it('leaving is left, a timeout is timedOut, and a complete session has no reason', async () => {
    const left = await at('perm');
    expect((await left('POST', '/exit')).body.position.endReason).toBe('left');

    const idle = await at('perm');
    clock.advance(31 * 60 * 1000);
    const gone = await idle('GET', '/session');
    expect(gone.body.position).toMatchObject({ status: 'incomplete', endReason: 'timedOut' });

    const done = await at('otp');
    const r = await done('POST', '/nodes/otp/result', { outcome: 'verified' });
    expect(r.body.position.status).toBe('complete');
    expect(r.body.position).not.toHaveProperty('endReason');
  });
});
