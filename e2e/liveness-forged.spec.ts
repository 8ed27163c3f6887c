import { expect, test } from '@playwright/test';
import { startIdv, type IdvServer } from './support/idvServer';

// A client that skips the camera and tells the server "livenessDetected" over plain HTTP, with a
// real client token of a live session: every way of saying it is refused and the session stays
// where it was. Only the server's own analysis of frames moves a liveness node.
let idv: IdvServer;
test.beforeAll(async () => {
  idv = await startIdv();
});
test.afterAll(async () => {
  await idv?.stop();
});

const FLOW = [
  { id: 'start', type: 'start', outcome: 'live' },
  {
    id: 'live',
    type: 'liveness_detection',
    outcomes: {
      livenessDetected: 'passed',
      deepfakeDetected: 'refused',
      noFace: 'refused',
      inconclusive: 'refused',
    },
  },
  { id: 'passed', type: 'end' },
  { id: 'refused', type: 'end' },
];

test('a forged livenessDetected is refused and changes nothing', async () => {
  const { session, clientSecret } = await idv.createSession(
    { flow: FLOW, clientReferenceId: 'forger' },
    idv.keys.live,
  );
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const r = await fetch(`${idv.url}/client${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  const exchanged = await call('POST', '/exchange', { clientSecret: clientSecret.secret });
  expect(exchanged.status).toBe(200);
  const token = exchanged.body['token'] as string;
  const before = await idv.getSession(session.id, idv.keys.live);
  expect(before.status).toBe('inProgress');

  // The outcome itself.
  const result = await call(
    'POST',
    '/nodes/live/result',
    { outcome: 'livenessDetected', report: { livenessScore: 1 } },
    token,
  );
  expect(result.status).toBe(400);
  expect(result.body['error']).toMatchObject({
    type: 'validation_error',
    code: 'outcome_not_allowed',
  });

  // An attempt finished with an outcome or scores smuggled into its body.
  const start = await call('POST', '/nodes/live/liveness/start', {}, token);
  expect(start.status).toBe(200);
  const attempt = `/nodes/live/liveness/${start.body['attemptId'] as string}`;
  const smuggled = await call(
    'POST',
    `${attempt}/finish`,
    { ended: 'done', outcome: 'livenessDetected' },
    token,
  );
  expect(smuggled.status).toBe(400);
  expect(smuggled.body['error']).toMatchObject({ type: 'validation_error' });
  // A frame that is not an image.
  const fake = await call(
    'POST',
    `${attempt}/frames`,
    { role: 'challenge', challengeIndex: 0, t: 10, image: Buffer.from('live!').toString('base64') },
    token,
  );
  expect(fake.status).toBe(400);

  const after = await idv.getSession(session.id, idv.keys.live);
  expect(after.status).toBe('inProgress');
  expect(after.report.nodeReports).toEqual([]);
  expect((after.report as { livenessDetected?: boolean }).livenessDetected).toBeUndefined();
  expect((await call('GET', attempt, undefined, token)).body).toEqual({ status: 'capturing' });
});
