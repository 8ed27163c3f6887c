import fc from 'fast-check';
import { API_LIMITS } from '../../core/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerProblems, deepJson, mutated, textDepth, withDeepValue } from './fuzzBodies';
import { MINIMAL_FLOW, startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimits: false });
});
afterAll(async () => h.close());

const countSessions = async () =>
  (
    await h.store.listSessions(
      { accountId: (await h.store.findAccount('acme'))!.id, mode: 'test' },
      { limit: 0, sortBy: 'createdAt', sortOrder: 'desc', after: null, includeTotal: true },
    )
  ).totalCount ?? -1;

const post = (url: string, payload: string, token: string | null = h.keys.test) =>
  h.app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    payload,
  });

const KEYS = [
  'flow',
  'modules',
  'flowId',
  'clientReferenceId',
  'metadata',
  'initialPhrase',
  'finalPhrase',
  'providedData',
  'avatarId',
  'langs',
  'defaultLang',
  'zone',
  'customization',
  'videoAIAnalysisEnabled',
  'redirectUrl',
  'embedOrigins',
];

/** Flows near the valid one: nodes dropped, fields replaced by any JSON. */
const nearFlow = fc
  .tuple(
    fc.subarray(MINIMAL_FLOW, { minLength: 0 }),
    fc.array(
      fc.tuple(
        fc.nat(3),
        fc.constantFrom('id', 'type', 'outcome', 'outcomes', 'prompt'),
        fc.jsonValue(),
      ),
      { maxLength: 3 },
    ),
  )
  .map(([nodes, edits]) => {
    const copy = nodes.map((n) => ({ ...n }) as Record<string, unknown>);
    for (const [i, k, v] of edits) if (copy[i]) copy[i]![k] = v;
    return copy;
  });

/** Bodies that are valid: some must be created, whatever else the run draws. */
const valid = fc.record(
  {
    flow: fc.constant(MINIMAL_FLOW),
    clientReferenceId: fc.string({ minLength: 1, maxLength: 50 }),
    metadata: fc.dictionary(
      fc.string({ minLength: 1, maxLength: 40 }),
      fc.string({ maxLength: 100 }),
      { maxKeys: 10 },
    ),
    langs: fc.subarray(['en', 'fr', 'de'], { minLength: 1 }),
    zone: fc.constantFrom('us', 'eu', 'es'),
    videoAIAnalysisEnabled: fc.boolean(),
  },
  { requiredKeys: ['flow'] },
);

const body = fc.oneof(
  valid,
  fc.jsonValue(),
  fc.dictionary(fc.constantFrom(...KEYS, 'extra'), fc.jsonValue(), { maxKeys: 6 }),
  fc.record(
    {
      flow: fc.oneof(nearFlow, fc.constant(MINIMAL_FLOW)),
      metadata: fc.dictionary(
        fc.string({ maxLength: 45 }),
        fc.oneof(fc.string({ maxLength: 600 }), fc.jsonValue()),
        { maxKeys: 55 },
      ),
      langs: fc.array(fc.constantFrom('en', 'fr', 'xx', '', 'pt'), { maxLength: 4 }),
      zone: fc.constantFrom('us', 'eu', 'es', 'mars'),
      clientReferenceId: fc.oneof(fc.string({ maxLength: 210 }), fc.integer()),
      embedOrigins: fc.array(fc.oneof(fc.webUrl(), fc.string()), { maxLength: 3 }),
    },
    { requiredKeys: [] },
  ),
);

describe('fuzzing POST /sessions', () => {
  it('answers 200 or validation_error to any JSON body, never 500, never a half-written session', async () => {
    const count = countSessions;
    let created = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const before = await count();
        const r = await h.app.inject({
          method: 'POST',
          url: '/sessions',
          headers: { authorization: `Bearer ${h.keys.test}`, 'content-type': 'application/json' },
          payload: JSON.stringify(b),
        });
        const after = await count();
        const json = r.json() as { error?: { type: string }; session?: { id: string } };
        if (r.statusCode === 200) {
          created++;
          expect(after).toBe(before + 1);
          const id = json.session!.id;
          const stored = await h.store.getSessionById(id);
          expect(stored?.settings.flow.length).toBeGreaterThan(0);
          expect(await h.store.getLatestClientSecret(id)).not.toBeNull();
          expect((await h.store.listEvents({ sessionId: id })).length).toBe(1);
        } else {
          refused++;
          expect(r.statusCode).toBe(400);
          expect(json.error?.type).toBe('validation_error');
          expect(after).toBe(before);
        }
      }),
      { numRuns: 400, examples: [[{ flow: MINIMAL_FLOW }], [{ flow: [] }]] },
    );
    expect(created).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  }, 120_000);
});

/** A create body with every field, and a flow with a node of each shape (maps, lists, objects). */
const FULL_BODY = {
  flow: [
    { id: 'start', type: 'start', outcome: 'perm' },
    {
      id: 'perm',
      type: 'permissions',
      outcomes: { permissionsGranted: 'ask', permissionsDenied: 'fail' },
    },
    {
      id: 'ask',
      type: 'conversation',
      prompt: 'Say: Are you ready?',
      outcomes: [
        { id: 'yes', condition: 'The user agrees', targetNodeId: 'email' },
        { id: 'no', condition: 'The user says no', targetNodeId: 'fail' },
      ],
    },
    {
      id: 'email',
      type: 'enter_email',
      prompt: 'Please type your email',
      outcomes: { emailEntered: 'check', canceled: 'fail' },
    },
    {
      id: 'check',
      type: 'data_validation',
      validation: { field: 'extractedData.email', action: 'contains', value: '@example.com' },
      outcomes: [
        { id: 'good', condition: 'passed', targetNodeId: 'end' },
        { id: 'bad', condition: 'failed', targetNodeId: 'fail' },
      ],
    },
    { id: 'end', type: 'end' },
    { id: 'fail', type: 'end' },
  ],
  flowId: 'kyc.v1',
  clientReferenceId: 'user_42',
  metadata: { plan: 'pro', region: 'eu' },
  providedData: { email: 'a@example.com' },
  initialPhrase: 'Hello',
  finalPhrase: 'Goodbye',
  langs: ['en', 'fr'],
  defaultLang: 'en',
  zone: 'eu',
  customization: {
    permissionsPage: { buttonText: 'Go', buttonTextTranslates: { fr: 'Allez' } },
    controls: { showUxControls: true },
    branding: { primaryColor: '#123456' },
  },
  videoAIAnalysisEnabled: false,
  redirectUrl: 'https://shop.example/done',
  embedOrigins: ['https://shop.example'],
};
const LEGACY_BODY = { modules: [{ type: 'emailVerification', email: 'a@b.co' }] };

/** A body's text, and its depth where it is known exactly (not after random edits). */
type Sent = { text: string; depth: number | null };
const exact = (a: fc.Arbitrary<string>) =>
  a.map((text): Sent => ({ text, depth: textDepth(text) }));
const edited = (a: fc.Arbitrary<string>) => mutated(a).map((text): Sent => ({ text, depth: null }));
/**
 * Bodies every run sends first (fast-check's `examples`), so what a test counts is there by
 * construction, not by the luck of the draw: the body as it is, and the body with one member
 * nested a level past the limit.
 */
const sureBodies = (body: Record<string, unknown>): Sent[] => {
  const n = API_LIMITS.maxJsonDepth + 1;
  const deep = { ...body, zzDeep: 0 };
  const text = JSON.stringify(deep).replace(
    '"zzDeep":0',
    `"zzDeep":${'['.repeat(n)}${']'.repeat(n)}`,
  );
  return [JSON.stringify(body), text].map((t) => ({ text: t, depth: textDepth(t) }));
};

/** Valid bodies with a deep value at any place, random deep values, and edits of both. */
function deepBodies(...bases: unknown[]): fc.Arbitrary<Sent> {
  const deep = fc.oneof(...bases.map(withDeepValue));
  return fc.oneof(
    { arbitrary: exact(deep), weight: 5 },
    {
      arbitrary: edited(fc.oneof(deep, fc.constantFrom(...bases.map((b) => JSON.stringify(b))))),
      weight: 3,
    },
    { arbitrary: exact(fc.oneof(deepJson, fc.json())), weight: 1 },
  );
}

describe('fuzzing POST /sessions with deep and mutated bodies', () => {
  it('answers 2xx or a 4xx error body, refusing every body nested too deep, never 500', async () => {
    // The bases are valid: what the runs refuse, they refuse for what was put in.
    for (const b of [FULL_BODY, LEGACY_BODY]) {
      expect((await post('/sessions', JSON.stringify(b))).statusCode).toBe(200);
    }
    const before = await countSessions();
    let created = 0;
    let tooDeep = 0;
    await fc.assert(
      fc.asyncProperty(deepBodies(FULL_BODY, LEGACY_BODY, { flow: MINIMAL_FLOW }), async (b) => {
        const r = await post('/sessions', b.text);
        expect(answerProblems(r, b.depth)).toEqual([]);
        if (r.statusCode === 200) created++;
        if (b.depth !== null && b.depth > API_LIMITS.maxJsonDepth) tooDeep++;
      }),
      {
        numRuns: 1000,
        examples: [...sureBodies(FULL_BODY), ...sureBodies(LEGACY_BODY)].map((b) => [b]),
      },
    );
    expect(await countSessions()).toBe(before + created);
    expect(created).toBeGreaterThan(0);
    expect(tooDeep).toBeGreaterThan(0);
  }, 120_000);
});

/** The session the client runs use: permissions, then an email, then the end. */
const CLIENT_BODY = {
  flow: [
    { id: 'start', type: 'start', outcome: 'perm' },
    {
      id: 'perm',
      type: 'permissions',
      outcomes: { permissionsGranted: 'email', permissionsDenied: 'fail' },
    },
    {
      id: 'email',
      type: 'enter_email',
      outcomes: { emailEntered: 'end', canceled: 'fail' },
    },
    { id: 'end', type: 'end' },
    { id: 'fail', type: 'end' },
  ],
  langs: ['en', 'fr'],
};

/** Reports of any JSON, one member nested near the limit: taken and stored when shallow enough. */
const anyReport = (outcome: string) =>
  exact(
    fc
      .tuple(
        fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
        fc.string({ maxLength: 10 }),
        fc.integer({ min: 1, max: API_LIMITS.maxJsonDepth + 2 }),
      )
      .map(([report, key, n]) => {
        const inner = JSON.stringify(report).slice(0, -1);
        const nested = '['.repeat(n) + ']'.repeat(n);
        const rest = `${inner.length > 1 ? ',' : ''}${JSON.stringify(`n${key}`)}:${nested}}`;
        return `{"outcome":${JSON.stringify(outcome)},"report":${inner}${rest}}`;
      }),
  );

const PERM_REPORT = { outcome: 'permissionsGranted', report: { camera: true, microphone: false } };
const EMAIL_REPORT = { outcome: 'emailEntered', report: { email: 'a@example.com' } };

/** Every POST of the client API, with bodies of the shape it takes; reports weigh the most. */
const CLIENT_TARGETS: { path: string; bodies: fc.Arbitrary<Sent>; weight: number }[] = [
  {
    path: '/nodes/perm/result',
    bodies: deepBodies(PERM_REPORT),
    weight: 4,
  },
  { path: '/nodes/perm/result', bodies: anyReport('permissionsGranted'), weight: 3 },
  {
    path: '/nodes/email/result',
    bodies: deepBodies(EMAIL_REPORT),
    weight: 3,
  },
  { path: '/nodes/email/result', bodies: anyReport('canceled'), weight: 2 },
  { path: '/exchange', bodies: deepBodies({ clientSecret: 'cs_fuzz.sess_fuzz' }), weight: 1 },
  { path: '/lang', bodies: deepBodies({ lang: 'fr' }), weight: 1 },
  { path: '/nodes/perm/reply', bodies: deepBodies({ text: 'yes' }), weight: 1 },
  {
    path: '/nodes/email/otp/send',
    bodies: deepBodies({ destination: 'a@example.com' }),
    weight: 1,
  },
  { path: '/nodes/email/otp/verify', bodies: deepBodies({ code: '123456' }), weight: 1 },
  { path: '/exit', bodies: deepBodies({}), weight: 1 },
  { path: '/nodes/perm/liveness/start', bodies: deepBodies({}), weight: 1 },
  {
    path: '/nodes/perm/liveness/att_fuzz/frames',
    bodies: deepBodies({ role: 'challenge', challengeIndex: 0, t: 10, image: '/9j/AAAA' }),
    weight: 1,
  },
  {
    path: '/nodes/perm/liveness/att_fuzz/finish',
    bodies: deepBodies({ ended: 'done' }),
    weight: 1,
  },
  { path: '/nodes/perm/run', bodies: deepBodies({}), weight: 1 },
  {
    path: '/nodes/email/document',
    bodies: deepBodies({ side: 'front', image: '/9j/AAAA' }),
    weight: 1,
  },
  { path: '/video/frames', bodies: deepBodies({ t: 0, image: '/9j/AAAA' }), weight: 1 },
];

describe('fuzzing the client API with deep and mutated bodies', () => {
  it('answers 2xx or a 4xx error body to every route, refusing every body nested too deep, never 500', async () => {
    /** A fresh session's client token: runs that end a session start another. */
    const open = async () => {
      const created = await post('/sessions', JSON.stringify(CLIENT_BODY));
      const secret = (created.json() as { clientSecret: { secret: string } }).clientSecret.secret;
      const ex = await post('/client/exchange', JSON.stringify({ clientSecret: secret }), null);
      return (ex.json() as { token: string }).token;
    };
    let token = await open();
    const reached = new Set<string>();
    let tooDeep = 0;
    const runs = fc.oneof(
      ...CLIENT_TARGETS.map((t) => ({
        arbitrary: t.bodies.map((b) => ({ ...b, path: t.path })),
        weight: t.weight,
      })),
    );
    await fc.assert(
      fc.asyncProperty(runs, async (b) => {
        const r = await post(`/client${b.path}`, b.text, b.path === '/exchange' ? null : token);
        expect(answerProblems(r, b.depth)).toEqual([]);
        if (b.depth !== null && b.depth > API_LIMITS.maxJsonDepth) tooDeep++;
        const json = r.json() as { position?: { nodeId: string | null } };
        if (r.statusCode === 200) reached.add(b.path);
        if (json.position?.nodeId === null) token = await open();
      }),
      {
        numRuns: 1000,
        // A report for each node in turn (the session ends), then one too deep.
        examples: [
          { ...sureBodies(PERM_REPORT)[0]!, path: '/nodes/perm/result' },
          { ...sureBodies(EMAIL_REPORT)[0]!, path: '/nodes/email/result' },
          { ...sureBodies({ lang: 'fr' })[1]!, path: '/lang' },
        ].map((b) => [b]),
      },
    );
    // Reports were taken (and sessions ended), not only refused.
    expect(reached).toContain('/nodes/perm/result');
    expect(reached).toContain('/nodes/email/result');
    expect(tooDeep).toBeGreaterThan(0);
  }, 120_000);
});
