/**
 * The conformance suite: what the API emits after a real session, checked against the shapes of
 * the original product's SDK 1.0.47 (compat.md), one fixture per shape in `shapes/`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geoLookup } from '../client/geo';
import { startHarness, type Harness } from '../test/harness';
import { CONFORMANCE_FLOW } from './flow';
import { conformanceProblems, shapeFiles } from './shape';

const UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

describe('the shape checker', () => {
  it('reads every fixture, and every reference in them resolves', () => {
    const files = shapeFiles();
    expect([...files.keys()].sort()).toEqual([
      'client-secret',
      'deepfake',
      'device',
      'document-scan-report',
      'location',
      'media',
      'node',
      'node-report',
      'report',
      'responses',
      'session',
      'settings',
      'video-ai-analysis',
      'webhook-event',
    ]);
    const refs = JSON.stringify([...files.values()]).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const r of refs) expect(() => conformanceProblems({}, r.slice(8, -1))).not.toThrow();
  });

  it('names what is missing, mistyped or outside an enum, and tolerates extra keys', () => {
    const ok = { verdict: 'authentic', score: null, extra: 1 };
    expect(conformanceProblems(ok, 'deepfake#detection')).toEqual([]);
    expect(conformanceProblems({ verdict: 'fake', score: '1' }, 'deepfake#detection')).toEqual([
      '$.verdict: "fake" is not one of authentic, manipulated, unknown',
      '$.score: matches none of 2 shapes ($.score: expected number, got string | $.score: expected null, got string)',
    ]);
    // The service's first shape (decisions.md) does not conform.
    expect(conformanceProblems({ status: 'pending', startedAt: 1 }, 'deepfake#status')).toEqual([
      '$.state: missing',
    ]);
    expect(
      conformanceProblems(
        { nodeId: 'x', type: 'start', outcome: 'x', createdAt: 1 },
        'node-report',
      ),
    ).toEqual(['$.type: "start" has no shape']);
    expect(
      conformanceProblems(
        {
          nodeId: 'o',
          type: 'two_factor_email',
          outcome: 'verified',
          createdAt: 1,
          report: { channel: 'email' },
        },
        'node-report',
      ),
    ).toHaveLength(1);
  });
});

describe('what the API emits after a real session (test mode)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ rateLimits: false, trustProxy: true, geo: geoLookup() });
  });
  afterAll(async () => {
    await h.close();
  });

  const expectConforms = (value: unknown, ref: string) =>
    expect(conformanceProblems(value, ref), ref).toEqual([]);

  it('conforms at every step: create, retrieve, list, refresh, langs, avatars, and the report', async () => {
    const created = await h.call('POST', '/sessions', {
      body: {
        flow: CONFORMANCE_FLOW,
        clientReferenceId: 'conformance-1',
        metadata: { plan: 'pro' },
        providedData: { phone: '+15555550100' },
        videoAIAnalysisEnabled: true,
        extractionSchema: [
          { fieldName: 'ready', type: 'boolean', description: 'Agrees to start' },
          { fieldName: 'age', type: 'number', description: 'Their age' },
        ],
      },
    });
    expect(created.status).toBe(200);
    expectConforms(created.body, 'responses#create');
    const id = created.body.session.id as string;

    const ex = await h.call('POST', '/client/exchange', {
      key: null,
      body: { clientSecret: created.body.clientSecret.secret },
      headers: { 'user-agent': UA, 'x-forwarded-for': '81.2.69.142' },
    });
    expect(ex.status).toBe(200);
    const c = (method: string, path: string, body?: unknown) =>
      h.call(method, `/client${path}`, { key: ex.body.token, ...(body ? { body } : {}) });
    const result = async (nodeId: string, outcome: string, report?: unknown) => {
      const r = await c('POST', `/nodes/${nodeId}/result`, {
        outcome,
        ...(report ? { report } : {}),
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    await result('perm', 'permissionsGranted');
    expect((await c('POST', '/nodes/ask/reply', { text: "Yes, let's start" })).body.outcome).toBe(
      'yes',
    );
    await result('email', 'emailEntered', { email: 'tester@example.com' });
    for (const node of ['otp', 'sms']) {
      expect((await c('POST', `/nodes/${node}/otp/send`, {})).status).toBe(200);
      expect((await c('POST', `/nodes/${node}/otp/verify`, { code: '000000' })).body.verified).toBe(
        true,
      );
    }
    await result('live', 'livenessDetected');
    await result('doc', 'scanSuccess');
    await result('scan', 'passed');
    await result('cmp', 'match');
    await result('rec', 'newUser');

    const got = await h.call('GET', `/sessions/${id}`);
    expectConforms(got.body, 'responses#retrieve');
    const s = got.body.session;
    expect(s.status).toBe('complete');
    expectConforms(s.report.device, 'device');
    expectConforms(s.report.location, 'location');
    expect(s.report.location.city.names.en).toBe('Bracknell');
    for (const n of s.report.nodeReports) expectConforms(n, 'node-report');
    const byNode = Object.fromEntries(
      s.report.nodeReports.map((n: { nodeId: string }) => [n.nodeId, n]),
    );
    // The entered email where the SDK reads it; each code's address by its channel.
    expect(byNode['email'].email).toBe('tester@example.com');
    expect(byNode['otp'].report.email).toMatch(/@example\.com$/);
    // Masked, as the service shows the address a code went to.
    expect(byNode['sms'].report.phoneNumber).toMatch(/^\+15•+00$/);
    expect(s.report.videoAIAnalysisStatus).toBe('pending');
    // The schema's fields typed (null when not said), beside the entered email.
    expect(s.report.extractedData).toMatchObject({
      ready: true,
      age: null,
      email: 'tester@example.com',
    });

    // The webhook bodies the session made, as they are delivered.
    const events = await h.store.listEvents({ sessionId: id });
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expectConforms(JSON.parse(e.payload), 'webhook-event');

    const list = await h.call('GET', '/sessions?limit=5&includeTotal=true');
    expectConforms(list.body, 'responses#list');
    expect(list.body.sessions.map((x: { id: string }) => x.id)).toContain(id);

    const refreshed = await h.call('POST', '/sessions', {
      body: { flow: CONFORMANCE_FLOW, metadata: {} },
    });
    const secret = await h.call('GET', `/sessions/${refreshed.body.session.id}/refresh`);
    expectConforms(secret.body, 'client-secret');
    expectConforms((await h.call('GET', '/langs')).body, 'responses#langs');
    expectConforms((await h.call('GET', '/avatars')).body, 'responses#avatars');
  });
});
