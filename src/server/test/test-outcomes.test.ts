// Scripted outcomes (`testOutcomes` at creation): checked at once, test mode only, and the server
// ends each scripted node by itself as soon as the session reaches it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

/** permissions → enter_email → two_factor_email → data_validation → end (or the other end) */
const FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  {
    id: 'perm',
    type: 'permissions',
    outcomes: { permissionsGranted: 'email', permissionsDenied: 'denied' },
  },
  {
    id: 'email',
    type: 'enter_email',
    prompt: 'Please type your email',
    outcomes: { emailEntered: 'otp', canceled: 'denied' },
  },
  {
    id: 'otp',
    type: 'two_factor_email',
    outcomes: { verified: 'check', failed_unverified: 'denied' },
  },
  {
    id: 'check',
    type: 'data_validation',
    validation: { field: 'extractedData.email', action: 'contains', value: '@example.com' },
    outcomes: [
      { id: 'good', condition: 'passed', targetNodeId: 'done' },
      { id: 'bad', condition: 'failed', targetNodeId: 'denied' },
    ],
  },
  { id: 'done', type: 'end' },
  { id: 'denied', type: 'end' },
];

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimits: false });
});
afterAll(async () => {
  await h.close();
});

const create = (body: Record<string, unknown>, key = h.keys.test) =>
  h.call('POST', '/sessions', { key, body });

async function open(testOutcomes: Record<string, string>) {
  const r = await create({ flow: FLOW, testOutcomes });
  expect(r.status).toBe(200);
  const ex = await h.call('POST', '/client/exchange', {
    key: null,
    body: { clientSecret: r.body.clientSecret.secret },
  });
  expect(ex.status).toBe(200);
  return { id: r.body.session.id as string, token: ex.body.token as string, opened: ex.body };
}

const outcomesOf = async (id: string) => {
  const r = await h.call('GET', `/sessions/${id}`, { key: h.keys.test });
  return {
    status: r.body.session.status as string,
    path: (r.body.session.report.nodeReports as { nodeId: string; outcome: string }[]).map(
      (n) => `${n.nodeId}:${n.outcome}`,
    ),
  };
};

describe('testOutcomes at creation', () => {
  it('names every problem at once: unknown node, an outcome the kind lacks, a node with none', async () => {
    const r = await create({
      flow: FLOW,
      testOutcomes: { perm: 'verified', ghost: 'passed', done: 'x', otp: 'verified' },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.type).toBe('validation_error');
    expect(r.body.error.details).toEqual([
      {
        path: 'testOutcomes.perm',
        nodeId: 'perm',
        message:
          "'verified' is not an outcome of the permissions node 'perm'; its outcomes are permissionsGranted, permissionsDenied",
      },
      { path: 'testOutcomes.ghost', message: "no node of the flow has the id 'ghost'" },
      {
        path: 'testOutcomes.done',
        nodeId: 'done',
        message: "the end node 'done' has no outcome to script",
      },
    ]);
  });

  it('refuses the field under a live key with a 400 that says why, and stores nothing', async () => {
    const before = await h.call('GET', '/sessions', { key: h.keys.live });
    const r = await create(
      { flow: FLOW, testOutcomes: { perm: 'permissionsGranted' } },
      h.keys.live,
    );
    expect(r.status).toBe(400);
    expect(r.body.error.details).toEqual([
      { path: 'testOutcomes', message: expect.stringMatching(/test mode only/) as unknown },
    ]);
    const after = await h.call('GET', '/sessions', { key: h.keys.live });
    expect(after.body.sessions).toHaveLength(before.body.sessions.length);
  });

  it('refuses what is not a map of strings, by the schema', async () => {
    const r = await create({ flow: FLOW, testOutcomes: { perm: 3 } });
    expect(r.status).toBe(400);
    expect(r.body.error.details[0].path).toMatch(/^testOutcomes/);
  });

  it('is kept in the settings the API returns', async () => {
    const r = await create({ flow: FLOW, testOutcomes: { perm: 'permissionsGranted' } });
    expect(r.body.session.settings.testOutcomes).toEqual({ perm: 'permissionsGranted' });
  });
});

describe('the server ends scripted nodes by itself', () => {
  it('a fully scripted session is over as soon as the page opens it', async () => {
    const { id, opened } = await open({
      perm: 'permissionsGranted',
      email: 'emailEntered',
      otp: 'verified',
      check: 'good',
    });
    expect(opened.position.status).toBe('complete');
    expect(await outcomesOf(id)).toEqual({
      status: 'complete',
      path: ['perm:permissionsGranted', 'email:emailEntered', 'otp:verified', 'check:good'],
    });
  });

  it('scripted and unscripted nodes mix; a scripted outcome with no target ends the session', async () => {
    const { id } = await open({ perm: 'permissionsGranted', email: 'canceled' });
    expect(await outcomesOf(id)).toEqual({
      status: 'complete',
      path: ['perm:permissionsGranted', 'email:canceled'],
    });
    const third = await open({ otp: 'cancelled' });
    const client = (path: string, body: unknown) =>
      h.call('POST', `/client${path}`, { key: third.token, body });
    expect(third.opened.position.nodeId).toBe('perm');
    // The tester (or the page) acts on the unscripted nodes; the server takes the scripted one.
    expect(
      (await client('/nodes/perm/result', { outcome: 'permissionsGranted' })).body.position.nodeId,
    ).toBe('email');
    const after = await client('/nodes/email/result', { outcome: 'emailEntered' });
    expect(after.body.position.status).toBe('incomplete');
    expect(await outcomesOf(third.id)).toEqual({
      status: 'incomplete',
      path: ['perm:permissionsGranted', 'email:emailEntered', 'otp:cancelled'],
    });
  });

  it('wins over the kind’s own decision: data_validation takes the scripted branch', async () => {
    // No email was entered, so check would fail by itself: the script says good.
    const good = await open({
      perm: 'permissionsGranted',
      email: 'emailEntered',
      otp: 'verified',
      check: 'good',
    });
    expect((await outcomesOf(good.id)).path.at(-1)).toBe('check:good');
    const { id } = await open({
      perm: 'permissionsGranted',
      email: 'emailEntered',
      otp: 'verified',
      check: 'bad',
    });
    expect(await outcomesOf(id)).toEqual({
      status: 'complete',
      path: ['perm:permissionsGranted', 'email:emailEntered', 'otp:verified', 'check:bad'],
    });
  });
});
