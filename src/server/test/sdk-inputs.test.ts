/**
 * What an integrator using the original product's SDK sends (compat.md §1–§3), against a real app
 * over a real SQLite file: every accepted field does what it says, every refused one says it is
 * not supported, naming its path (docs/sdk-inputs.md).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSIONS, LATEST_VERSION } from '../../core/api';
import { verifyWebhookSignature } from '../../sdk/signature';
import { registerEndpoint } from '../webhooks/endpoints';
import { createSqliteWebhookStore } from '../webhooks/sqlite-store';
import { MINIMAL_FLOW, startHarness, type Harness } from './harness';
import { promised } from '../store/promised';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimits: false, externalCalls: { retryDelaysMs: [0, 0] } });
});
afterAll(async () => h.close());

const create = (body: Record<string, unknown>, headers?: Record<string, string>) =>
  h.call('POST', '/sessions', { body, ...(headers ? { headers } : {}) });

/** The problems of a refused create, as `path: message` lines. */
async function refusal(body: Record<string, unknown>): Promise<string[]> {
  const r = await create(body);
  expect(r.status).toBe(400);
  expect(r.body.error.type).toBe('validation_error');
  return (r.body.error.details as { path: string; message: string }[]).map(
    (d) => `${d.path}: ${d.message}`,
  );
}

const flowWith = (node: Record<string, unknown>) => [
  { id: 'start', type: 'start', outcome: node['id'] },
  node,
  { id: 'end', type: 'end' },
];

describe('session settings the SDK sends', () => {
  it('keeps metadata of any JSON values and searches its strings and numbers', async () => {
    const metadata = { seats: 5, vip: true, tags: ['a', 'b'], plan: { name: 'Gold', n: 98712 } };
    const r = await create({ flow: MINIMAL_FLOW, metadata });
    expect(r.status).toBe(200);
    expect(r.body.session.settings.metadata).toEqual(metadata);
    const found = await h.call('GET', '/sessions?search=98712');
    expect(found.body.sessions.map((s: { id: string }) => s.id)).toEqual([r.body.session.id]);
    expect(await refusal({ flow: MINIMAL_FLOW, metadata: [1, 2] })).toEqual([
      expect.stringMatching(/^metadata: /),
    ]);
    expect(
      await refusal({ flow: MINIMAL_FLOW, metadata: { long: { x: 'y'.repeat(600) } } }),
    ).toEqual([expect.stringMatching(/^metadata\.long: metadata\.long is \d+ characters long/)]);
  });

  it('keeps number and boolean providedData; name, email and phone must be strings', async () => {
    const r = await create({
      flow: MINIMAL_FLOW,
      providedData: { age: 42, vip: true, name: 'Ana' },
    });
    expect(r.status).toBe(200);
    expect(r.body.session.settings.providedData).toEqual({ age: 42, vip: true, name: 'Ana' });
    expect(
      await refusal({ flow: MINIMAL_FLOW, providedData: { email: 5, phone: true, n: null } }),
    ).toEqual(
      expect.arrayContaining([
        'providedData.email: providedData.email must be a string',
        'providedData.phone: providedData.phone must be a string',
        expect.stringMatching(/^providedData\.n: /),
      ]),
    );
  });

  it('takes customization.controls.buttons and autoHide, refusing an unknown button', async () => {
    const controls = { buttons: ['captions', 'close'], autoHide: false, showUxControls: true };
    const r = await create({ flow: MINIMAL_FLOW, customization: { controls } });
    expect(r.status).toBe(200);
    expect(r.body.session.settings.customization.controls).toEqual(controls);
    const page = await openPage(r.body.clientSecret.secret);
    const seen = await page.call('GET', '/session');
    expect(seen.body.session.settings.customization.controls).toEqual(controls);
    expect(
      await refusal({ flow: MINIMAL_FLOW, customization: { controls: { buttons: ['volume'] } } }),
    ).toEqual([expect.stringMatching(/^customization\.controls\.buttons\[0\]: /)]);
  });

  it('keeps backgroundAssetId (no asset is kept here, so it changes nothing, as for an unknown id)', async () => {
    const r = await create({ flow: MINIMAL_FLOW, backgroundAssetId: 'asset_123' });
    expect(r.status).toBe(200);
    expect(r.body.session.settings.backgroundAssetId).toBe('asset_123');
  });

  it('accepts a well-formed extractionSchema and names each problem of another', async () => {
    const field = { fieldName: 'income', type: 'number', description: 'Yearly income' };
    const made = await create({ flow: MINIMAL_FLOW, extractionSchema: [field] });
    expect(made.status).toBe(200);
    expect(made.body.session.settings.extractionSchema).toEqual([field]);
    expect(
      await refusal({ flow: MINIMAL_FLOW, extractionSchema: [field, { ...field, enum: ['1'] }] }),
    ).toEqual([
      "extractionSchema[1].fieldName: fieldName 'income' is used twice (also extractionSchema[0])",
      'extractionSchema[1].enum: enum applies to string fields only (this one is number)',
    ]);
    const bad = await refusal({ flow: MINIMAL_FLOW, extractionSchema: [{ fieldName: 'x' }] });
    expect(bad.every((line) => line.startsWith('extractionSchema'))).toBe(true);
  });
});

describe('transport', () => {
  it("reads the SDK's Facesign-Version: its pinned date is the latest, a known one selects it", async () => {
    const pinned = await create({ flow: MINIMAL_FLOW }, { 'facesign-version': '2024-12-18' });
    expect(pinned.status).toBe(200);
    expect(pinned.headers.get('service-version')).toBe(LATEST_VERSION);
    expect(pinned.body.session.status).toBe('created');
    const legacy = await h.call('GET', `/sessions/${pinned.body.session.id}`, {
      headers: { 'facesign-version': '2025-01-01' },
    });
    expect(legacy.body.session.status).toBe('requiresInput');
    const both = await h.call('GET', `/sessions/${pinned.body.session.id}`, {
      headers: { 'facesign-version': '2025-01-01', 'service-version': LATEST_VERSION },
    });
    expect(both.body.session.status).toBe('created');
    const unknown = await h.call('GET', '/langs', {
      headers: { 'facesign-version': '1999-01-01' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe(
      `Unknown Facesign-Version "1999-01-01"; known versions: ${API_VERSIONS.join(', ')}`,
    );
  });

  it('serves a base URL with a trailing slash (doubled slashes) and a trailing slash', async () => {
    const r = await h.call('POST', '//sessions', { body: { flow: MINIMAL_FLOW } });
    expect(r.status).toBe(200);
    const id = r.body.session.id as string;
    expect((await h.call('GET', `//sessions/${id}`)).status).toBe(200);
    expect((await h.call('GET', `/sessions/${id}/`)).status).toBe(200);
    expect((await h.call('GET', '//v1//langs')).status).toBe(200);
  });

  it('refuses fromDate in seconds where milliseconds are read, saying what to send', async () => {
    const r = await h.call('GET', '/sessions?fromDate=1700000000');
    expect(r.status).toBe(400);
    expect(r.body.error.details).toEqual([
      {
        path: 'fromDate',
        message: `fromDate 1700000000 looks like Unix seconds; version ${LATEST_VERSION} reads Unix milliseconds: send 1700000000000 (or Service-Version 2025-01-01, which reads seconds)`,
      },
    ]);
    expect((await h.call('GET', '/sessions?fromDate=1700000000000')).status).toBe(200);
  });
});

describe('node fields the SDK allows', () => {
  it('takes face_scan requireAILivenessCheck, enableSound, enableHaptics', async () => {
    const node = {
      id: 'face',
      type: 'face_scan',
      requireAILivenessCheck: true,
      enableSound: false,
      enableHaptics: false,
      outcomes: { passed: 'end' },
    };
    const r = await create({ flow: flowWith(node) });
    expect(r.status).toBe(200);
    expect(r.body.session.settings.flow[1]).toEqual(node);
  });

  it('takes two-factor showUI, isEmail and the other checks, the document types of the SDK', async () => {
    const flow = [
      { id: 'start', type: 'start', outcome: 'otp' },
      { id: 'otp', type: 'two_factor_sms', showUI: false, outcomes: { verified: 'check' } },
      {
        id: 'check',
        type: 'data_validation',
        validation: { field: 'providedData.email', action: 'isEmail' },
        outcomes: [{ id: 'ok', condition: 'passed', targetNodeId: 'doc' }],
      },
      {
        id: 'doc',
        type: 'document_scan',
        scanningMode: 'automatic',
        allowedDocumentTypes: ['residence-permit', 'green-card', 'passport'],
        outcomes: { scanSuccess: 'end' },
      },
      { id: 'end', type: 'end' },
    ];
    expect((await create({ flow })).status).toBe(200);
  });

  it('refuses conversation awaitExternal as not supported, naming the field', async () => {
    const node = {
      id: 'talk',
      type: 'conversation',
      prompt: 'Say: Hello',
      outcomes: [{ id: 'a', condition: '', targetNodeId: 'end' }],
      awaitExternal: { request: { url: 'https://x.example' } },
    };
    expect(await refusal({ flow: flowWith(node) })).toEqual([
      expect.stringMatching(/^flow\[1\]\.awaitExternal: 'awaitExternal' is not supported: /),
    ]);
  });

  it('compiles the legacy smsVerification and ageEstimation modules, refuses knowledgeVerify', async () => {
    const r = await create({ modules: [{ type: 'smsVerification', phone: '+33612345678' }] });
    expect(r.status).toBe(200);
    expect(r.body.session.settings.providedData).toEqual({ phone: '+33612345678' });
    expect((await create({ modules: [{ type: 'ageEstimation', age: 18 }] })).status).toBe(200);
    expect(await refusal({ modules: [{ type: 'knowledgeVerify' }] })).toEqual([
      expect.stringMatching(/^modules\[0\]\.type: knowledgeVerify is not supported/),
    ]);
  });
});

/** Opens a session's page and returns its client caller and the position it is at. */
async function openPage(secret: string) {
  const ex = await h.call('POST', '/client/exchange', {
    key: null,
    body: { clientSecret: secret },
  });
  expect(ex.status).toBe(200);
  const token = ex.body.token as string;
  const call = (method: string, path: string, body?: unknown) =>
    h.call(method, `/client${path}`, { key: token, ...(body !== undefined ? { body } : {}) });
  const s = await call('GET', '/session');
  return { call, position: s.body.position as { nodeId: string | null; status: string } };
}

const scoreCondition = {
  id: 'cond',
  type: 'field_condition',
  default: 'low',
  rules: [
    {
      left: { source: 'providedData', field: 'score' },
      operator: 'gte',
      right: { type: 'literal', value: 50 },
      outcome: 'high',
    },
    { left: { source: 'providedData', field: 'vip' }, operator: 'exists', outcome: 'vipEnd' },
  ],
};
const ends = ['high', 'low', 'vipEnd'].map((id) => ({ id, type: 'end' }));

describe('field_condition', () => {
  it('routes by the first rule that holds, else the default, and reports which', async () => {
    const flow = [{ id: 'start', type: 'start', outcome: 'cond' }, scoreCondition, ...ends];
    const cases: [Record<string, unknown>, string, number | null][] = [
      [{ score: 72, vip: true }, 'high', 0],
      [{ score: ' 12 ', vip: 'yes' }, 'vipEnd', 1],
      [{ score: 'abc' }, 'low', null],
      [{}, 'low', null],
    ];
    for (const [providedData, end, rule] of cases) {
      const made = await create({ flow, providedData });
      expect(made.status).toBe(200);
      await openPage(made.body.clientSecret.secret);
      const s = await h.call('GET', `/sessions/${made.body.session.id}`);
      expect(s.body.session.status).toBe('complete');
      const reports = s.body.session.report.nodeReports as { nodeId: string; outcome: string }[];
      expect(reports.find((n) => n.nodeId === 'cond')).toMatchObject({
        type: 'field_condition',
        outcome: rule === null ? 'default' : `rules[${rule}]`,
        report: { rule },
      });
      expect(s.body.session.report.isVerified).toBe(true);
      const path = await h.store.getSessionById(made.body.session.id);
      expect(path?.position.path.at(-1)).toMatchObject({ nodeId: 'cond' });
      expect(flow.find((n) => n.id === end)).toBeTruthy();
    }
  });

  it('refuses a rule without right for a binary operator, or with one for exists', async () => {
    const node = {
      ...scoreCondition,
      rules: [
        { left: { source: 'providedData', field: 's' }, operator: 'gt', outcome: 'high' },
        {
          left: { source: 'extractedData', field: 's' },
          operator: 'notExists',
          right: { type: 'literal', value: 1 },
          outcome: 'high',
        },
      ],
    };
    const flow = [{ id: 'start', type: 'start', outcome: 'cond' }, node, ...ends];
    expect(await refusal({ flow })).toEqual([
      'flow[1].rules[0].right: right is required for the operator gt',
      'flow[1].rules[1].right: right is not used by the operator notExists; remove it',
      expect.stringMatching(/^flow\[4\]: node 'vipEnd' cannot be reached/),
    ]);
  });
});

/** A real HTTP receiver that answers each request with the next scripted answer. */
async function receiver(answers: { status: number; body: string }[]) {
  const seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] =
    [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('external_call', () => {
  const callFlow = (url: string, method?: 'GET') => [
    { id: 'start', type: 'start', outcome: 'ext' },
    {
      id: 'ext',
      type: 'external_call',
      outcome: 'cond',
      request: {
        url: `${url}/score?src=idv`,
        ...(method ? { method } : {}),
        vars: [
          { name: 'ref', value: { type: 'literal', value: 'x' } },
          { name: 'who', value: { type: 'ref', source: 'providedData', field: 'name' } },
          { name: 'none', value: { type: 'ref', source: 'extractedData', field: 'missing' } },
        ],
      },
    },
    scoreCondition,
    ...ends,
  ];

  async function allow(url: string): Promise<string> {
    const probe = await create({ flow: MINIMAL_FLOW });
    const accountId = (await h.store.getSessionById(probe.body.session.id))!.accountId;
    const r = await registerEndpoint(promised(createSqliteWebhookStore(h.store.db)), {
      accountId,
      mode: 'test',
      url: `${url}/hooks`,
      policy: 'local',
      now: Date.now(),
    });
    if (!r.ok) throw new Error(r.problems.join('; '));
    return r.secret;
  }

  it('posts signed values to an allowed endpoint, merges its flat answer, moves on', async () => {
    const rx = await receiver([{ status: 200, body: '{"score":72,"tier":"gold","deep":{"a":1}}' }]);
    try {
      const secret = await allow(rx.url);
      const made = await create({ flow: callFlow(rx.url), providedData: { name: 'Ana' } });
      expect(made.status).toBe(200);
      const page = await openPage(made.body.clientSecret.secret);
      expect(page.position.nodeId).toBe('ext');
      expect(rx.seen).toEqual([]);
      const ran = await page.call('POST', '/nodes/ext/run', {});
      expect(ran.status).toBe(200);
      expect(ran.body.position.status).toBe('complete');
      expect(rx.seen).toHaveLength(1);
      const req = rx.seen[0]!;
      expect(req.method).toBe('POST');
      expect(req.url).toBe(`/score?src=idv&sessionId=${made.body.session.id}`);
      expect(JSON.parse(req.body)).toEqual({ ref: 'x', who: 'Ana', none: null });
      expect(
        verifyWebhookSignature({
          rawBody: req.body,
          header: req.headers['x-service-signature'],
          secret,
        }),
      ).toMatchObject({ ok: true });
      const s = (await h.call('GET', `/sessions/${made.body.session.id}`)).body.session;
      expect(s.settings.providedData).toEqual({ name: 'Ana', score: 72, tier: 'gold' });
      const reports = s.report.nodeReports as {
        nodeId: string;
        outcome: string;
        report: unknown;
      }[];
      expect(reports.find((r) => r.nodeId === 'ext')).toMatchObject({
        type: 'external_call',
        outcome: 'completed',
        report: { status: 200, attempts: 1, merged: ['score', 'tier'], dropped: ['deep'] },
      });
      expect(reports.find((r) => r.nodeId === 'cond')?.outcome).toBe('rules[0]');
    } finally {
      await rx.close();
    }
  });

  it('sends GET values in the query, signed over the path and query', async () => {
    const rx = await receiver([{ status: 200, body: '{}' }]);
    try {
      const secret = await allow(rx.url);
      const made = await create({ flow: callFlow(rx.url, 'GET'), providedData: { name: 'Ana B' } });
      const page = await openPage(made.body.clientSecret.secret);
      await page.call('POST', '/nodes/ext/run', {});
      const req = rx.seen[0]!;
      expect(req.method).toBe('GET');
      const url = new URL(req.url, 'http://x');
      expect(Object.fromEntries(url.searchParams)).toEqual({
        src: 'idv',
        sessionId: made.body.session.id,
        ref: 'x',
        who: 'Ana B',
      });
      expect(
        verifyWebhookSignature({
          rawBody: req.url,
          header: req.headers['x-service-signature'],
          secret,
        }),
      ).toMatchObject({ ok: true });
    } finally {
      await rx.close();
    }
  });

  it('retries a 5xx, then fails and still moves on, the report saying why', async () => {
    const rx = await receiver([{ status: 503, body: '' }]);
    try {
      await allow(rx.url);
      const made = await create({ flow: callFlow(rx.url), providedData: { score: 99 } });
      const page = await openPage(made.body.clientSecret.secret);
      const ran = await page.call('POST', '/nodes/ext/run', {});
      expect(ran.status).toBe(200);
      expect(rx.seen).toHaveLength(3);
      const s = (await h.call('GET', `/sessions/${made.body.session.id}`)).body.session;
      const ext = (s.report.nodeReports as { nodeId: string }[]).find((r) => r.nodeId === 'ext');
      expect(ext).toMatchObject({
        outcome: 'failed',
        report: { status: 503, attempts: 3, merged: [], error: 'HTTP 503' },
      });
      expect(s.settings.providedData).toEqual({ score: 99 });
    } finally {
      await rx.close();
    }
  });

  it('does not retry a 4xx, nor call an origin that is not an endpoint of the account', async () => {
    const rx = await receiver([{ status: 404, body: '' }]);
    const stranger = await receiver([{ status: 200, body: '{"score":100}' }]);
    try {
      await allow(rx.url);
      const made = await create({ flow: callFlow(rx.url) });
      await (await openPage(made.body.clientSecret.secret)).call('POST', '/nodes/ext/run', {});
      expect(rx.seen).toHaveLength(1);
      const other = await create({ flow: callFlow(stranger.url) });
      const page = await openPage(other.body.clientSecret.secret);
      await page.call('POST', '/nodes/ext/run', {});
      expect(stranger.seen).toEqual([]);
      const s = (await h.call('GET', `/sessions/${other.body.session.id}`)).body.session;
      const ext = (s.report.nodeReports as { nodeId: string }[]).find((r) => r.nodeId === 'ext');
      expect(ext).toMatchObject({
        outcome: 'failed',
        report: {
          attempts: 0,
          error: expect.stringContaining('is not the origin of a webhook endpoint'),
        },
      });
    } finally {
      await rx.close();
      await stranger.close();
    }
  });

  it('refuses a request URL that is not http(s), a var name used twice', async () => {
    const node = {
      id: 'ext',
      type: 'external_call',
      outcome: 'end',
      request: {
        url: 'ftp://x.example/a',
        vars: [
          { name: 'a', value: { type: 'literal', value: 1 } },
          { name: 'a', value: { type: 'literal', value: 2 } },
        ],
      },
    };
    expect(await refusal({ flow: flowWith(node) })).toEqual([
      'flow[1].request.url: request.url must be an http or https URL',
      "flow[1].request.vars[1].name: var name 'a' is used twice (also vars[0])",
    ]);
  });
});
