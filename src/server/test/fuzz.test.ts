import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINIMAL_FLOW, startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimits: false });
});
afterAll(async () => h.close());

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
    const count = async () =>
      (
        await h.store.listSessions(
          { accountId: (await h.store.findAccount('acme'))!.id, mode: 'test' },
          { limit: 0, sortBy: 'createdAt', sortOrder: 'desc', after: null, includeTotal: true },
        )
      ).totalCount ?? -1;
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
      { numRuns: 400 },
    );
    expect(created).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  }, 120_000);
});
