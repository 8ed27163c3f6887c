import Fastify, { type FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_LIMITS } from '../../core/api';
import type { Flow, FlowPosition } from '../../core/flow';
import { rememberFlow } from '../knownFlows';
import { ApiError } from './errors';
import { jsonBodyParser } from './jsonBody';

const FLOW = [
  { id: 'start', type: 'start', outcome: 'email' },
  { id: 'email', type: 'enter_email', outcomes: { emailEntered: 'done' } },
  { id: 'done', type: 'end' },
];
const FLOW_TEXT = JSON.stringify(FLOW);
const START: FlowPosition = {
  nodeId: 'email',
  nodeType: 'enter_email',
  status: 'active',
  path: [],
};
/** A flow found valid before (the parser takes the registry's word for it). */
const rememberFlowText = (text: string) => rememberFlow(JSON.parse(text) as Flow, START, text);

let app: FastifyInstance;
/** What the route saw: the parsed body, and whether its flow is the shared value. */
const post = async (payload: string) => {
  const r = await app.inject({
    method: 'POST',
    url: '/echo',
    headers: { 'content-type': 'application/json' },
    payload,
  });
  return {
    status: r.statusCode,
    ...(r.json() as { body?: unknown; frozen?: boolean; error?: { message: string } }),
  };
};

beforeAll(async () => {
  app = Fastify({ onProtoPoisoning: 'error', onConstructorPoisoning: 'error' });
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    jsonBodyParser(app.getDefaultJsonParser('error', 'error')),
  );
  app.setErrorHandler((err: { code?: string }, _req, reply) =>
    reply.code(400).send(err instanceof ApiError ? err.body() : { code: err.code }),
  );
  app.post('/echo', async (req) => {
    const flow = (req.body as { flow?: unknown } | null)?.flow;
    return { body: req.body, frozen: typeof flow === 'object' && Object.isFrozen(flow) };
  });
  await app.ready();
  rememberFlowText(FLOW_TEXT);
});
afterAll(() => app.close());

describe('the JSON body parser', () => {
  it('puts the shared, frozen value of a known flow in place of its text', async () => {
    const text = `{"clientReferenceId":"u-1","flow":${FLOW_TEXT},"metadata":{"a":"b"}}`;
    expect(await post(text)).toEqual({ status: 200, body: JSON.parse(text), frozen: true });
  });

  it('parses a flow it does not know as usual', async () => {
    const text = `{"flow":${JSON.stringify([...FLOW, { id: 'x', type: 'end' }])}}`;
    expect(await post(text)).toEqual({ status: 200, body: JSON.parse(text), frozen: false });
  });

  it('leaves a known flow that is not the body’s own flow as it was sent', async () => {
    for (const text of [
      `{"metadata":{"flow":${FLOW_TEXT}}}`,
      `{"metadata":{"flow":${FLOW_TEXT}},"flow":${FLOW_TEXT}}`,
      `{"flow":${FLOW_TEXT},"flow":[1]}`,
      `[{"flow":${FLOW_TEXT}}]`,
    ]) {
      expect((await post(text)).body).toEqual(JSON.parse(text));
    }
  });

  it('keeps Fastify’s refusals: bad JSON, an empty body, a poisoned prototype', async () => {
    expect(await post(`{"flow":${FLOW_TEXT},}`)).toEqual({
      status: 400,
      code: 'FST_ERR_CTP_INVALID_JSON_BODY',
    });
    expect(await post(`{"flow":${FLOW_TEXT}`)).toEqual({
      status: 400,
      code: 'FST_ERR_CTP_INVALID_JSON_BODY',
    });
    expect((await post(`{"flow":${FLOW_TEXT},"__proto__":{"x":1}}`)).status).toBe(400);
    expect((await post(`{"flow":${FLOW_TEXT},"constructor":{"prototype":{}}}`)).status).toBe(400);
  });

  it('reads any body made of known flows and other JSON as JSON.parse does', async () => {
    const piece = fc.oneof(
      fc.constant(FLOW_TEXT),
      fc.constant(`"flow":${FLOW_TEXT}`),
      fc.constant('"flow":'),
      fc.json(),
      fc.constantFrom('{', '}', '[', ']', ',', ':', '"flow"'),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 8 }), async (pieces) => {
        const text = pieces.join('');
        let expected: unknown;
        try {
          expected = JSON.parse(text);
        } catch {
          expected = undefined;
        }
        const got = await post(text);
        // Fastify refuses what only looks like prototype poisoning, and the answer's JSON
        // has no -0.
        if (expected === undefined) expect(got.status).toBe(400);
        else if (!/__proto__|constructor/.test(text)) {
          expect(got.body).toEqual(JSON.parse(JSON.stringify(expected)));
        }
      }),
      { numRuns: 300 },
    );
  });
});

const MAX = API_LIMITS.maxJsonDepth;
/** `inner` inside `levels` arrays. */
const nest = (levels: number, inner: string) => '['.repeat(levels) + inner + ']'.repeat(levels);
/** `inner` at `"flow":` inside objects `levels` deep: the body's own one when `levels` is 1. */
const flowAt = (levels: number, inner: string) =>
  '{"m":'.repeat(levels - 1) + `{"flow":${inner}}` + '}'.repeat(levels - 1);
const TOO_DEEP = `nested more than ${MAX} levels deep`;

describe('the JSON body parser’s depth limit', () => {
  it('refuses a body nested deeper than the limit, naming its field, and takes one at the limit', async () => {
    const at = await post(`{"a":${nest(MAX - 1, '1')}}`);
    expect(at.status).toBe(200);
    const over = await post(`{"a":${nest(MAX, '1')}}`);
    expect(over.status).toBe(400);
    expect(over.error?.message).toBe(
      `Invalid request parameters: a: nested more than ${MAX} levels deep; a request body may nest arrays and objects ${MAX} levels at most`,
    );
    expect((await post(nest(10_000, '"[]"'))).error?.message).toContain(`(body): ${TOO_DEEP}`);
  });

  it('counts the rest of a body sent with a known flow', async () => {
    const text = `{"flow":${FLOW_TEXT},"metadata":${nest(MAX, '1')}}`;
    expect((await post(text)).error?.message).toContain(`metadata: ${TOO_DEEP}`);
    const ok = `{"flow":${FLOW_TEXT},"metadata":${nest(MAX - 1, '1')}}`;
    expect(await post(ok)).toMatchObject({ status: 200, frozen: true });
  });

  it('counts a known flow that is not the body’s own flow where it is', async () => {
    // FLOW is 3 levels deep: at the limit where its "flow": is MAX - 3 levels down, over it below.
    expect((await post(flowAt(MAX - 3, FLOW_TEXT))).status).toBe(200);
    expect((await post(flowAt(MAX - 2, FLOW_TEXT))).error?.message).toContain(`m: ${TOO_DEEP}`);
  });

  it('does not recognise a flow too deep to be a body’s own, so the body is counted whole', async () => {
    const deepFlow = JSON.stringify([
      { id: 'start', type: 'start', x: JSON.parse(nest(MAX - 2, '1')) },
    ]);
    rememberFlowText(deepFlow);
    expect((await post(`{"flow":${deepFlow}}`)).error?.message).toContain(`flow: ${TOO_DEEP}`);
  });
});
