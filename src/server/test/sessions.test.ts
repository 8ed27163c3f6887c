import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINIMAL_FLOW, startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ rateLimits: false });
});
afterAll(async () => h.close());

const create = (body: unknown, key?: string, headers?: Record<string, string>) =>
  h.call('POST', '/sessions', { body, ...(key ? { key } : {}), ...(headers ? { headers } : {}) });

describe('POST /sessions', () => {
  it('creates a session with its client secret, defaults filled in', async () => {
    const r = await create({
      flow: MINIMAL_FLOW,
      clientReferenceId: 'user-1',
      metadata: { plan: 'gold' },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('service-version')).toBe('2026-11-27');
    const { session, clientSecret } = r.body;
    expect(session.id).toMatch(/^sess_[0-9a-f]{24}$/);
    expect(session.status).toBe('created');
    expect(session.livemode).toBe(false);
    expect(session.version).toBe('2026-11-27');
    expect(session.flowId).toMatch(/^flow_[0-9a-f]{16}$/);
    expect(session.startedAt).toBeUndefined();
    expect(session.settings).toMatchObject({
      clientReferenceId: 'user-1',
      metadata: { plan: 'gold' },
      langs: ['en', 'fr', 'de', 'ru', 'es', 'id', 'no', 'pt', 'it'],
      defaultLang: 'en',
      zone: 'us',
      embedOrigins: [],
      videoAIAnalysisEnabled: false,
    });
    expect(session.report).toEqual({ transcript: [], nodeReports: [], isVerified: false });
    expect(Math.abs(session.createdAt - Date.now())).toBeLessThan(10_000);
    expect(clientSecret.secret).toMatch(/^cs_[A-Za-z0-9_-]{43}\.sess_[0-9a-f]{24}$/);
    expect(clientSecret.secret.endsWith(`.${session.id}`)).toBe(true);
    expect(clientSecret.expireAt - clientSecret.createdAt).toBe(3_600_000);
    expect(clientSecret.url).toBe(`http://idv.test/verify?client_secret=${clientSecret.secret}`);
    const events = await h.store.listEvents({ sessionId: session.id });
    expect(events.map((e) => e.type)).toEqual(['session.status']);
    expect(JSON.parse(events[0]!.payload)).toEqual({
      id: events[0]!.id,
      type: 'session.status',
      createdAt: session.createdAt,
      sessionId: session.id,
    });
  });

  it('gives sessions of the same flow the same flowId, whatever the key order, and keeps a given flowId', async () => {
    const a = await create({ flow: MINIMAL_FLOW });
    const reordered = MINIMAL_FLOW.map((n) => Object.fromEntries(Object.entries(n).reverse()));
    const b = await create({ flow: reordered });
    expect(a.body.session.flowId).toBe(b.body.session.flowId);
    const c = await create({ flow: MINIMAL_FLOW, flowId: 'kyc-v2' });
    expect(c.body.session.flowId).toBe('kyc-v2');
    expect(c.body.session.settings.flowId).toBe('kyc-v2');
  });

  it('reports every flow problem at once with path and node, and stores nothing', async () => {
    const before = (await h.call('GET', '/sessions?includeTotal=true&limit=0')).body.totalCount;
    const r = await create({
      flow: [
        { id: 'start', type: 'start', outcome: 'nowhere' },
        { id: 'p', type: 'permissions', outcomes: { permissionsGranted: 'ghost', bogus: 'p' } },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body.error.type).toBe('validation_error');
    const details = r.body.error.details as { path: string; message: string; nodeId?: string }[];
    expect(details.length).toBeGreaterThanOrEqual(3);
    expect(details.some((d) => /end/i.test(d.message))).toBe(true);
    expect(details.some((d) => d.nodeId === 'p' && d.path.startsWith('flow[1]'))).toBe(true);
    expect(details.some((d) => d.nodeId === 'start')).toBe(true);
    const after = (await h.call('GET', '/sessions?includeTotal=true&limit=0')).body.totalCount;
    expect(after).toBe(before);
  });

  it('refuses matches patterns RE2 cannot run, naming each node, and stores nothing', async () => {
    const before = (await h.call('GET', '/sessions?includeTotal=true&limit=0')).body.totalCount;
    const check = (id: string, value: string, next: string) => ({
      id,
      type: 'data_validation',
      validation: { field: 'providedData.email', action: 'matches', value },
      outcomes: [
        { id: 'ok', condition: 'passed', targetNodeId: next },
        { id: 'ko', condition: 'failed', targetNodeId: 'end' },
      ],
    });
    const r = await create({
      flow: [
        { id: 'start', type: 'start', outcome: 'ahead' },
        check('ahead', '^(?!admin@).+@example\\.com$', 'twice'),
        check('twice', '^(.)\\1', 'end'),
        { id: 'end', type: 'end' },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body.error.type).toBe('validation_error');
    const note = '(RE2 has no lookahead, lookbehind or backreferences)';
    expect(r.body.error.details).toEqual([
      {
        path: 'flow[1].validation.value',
        nodeId: 'ahead',
        message: `value is not a valid RE2 regular expression: invalid or unsupported Perl syntax: \`(?!\` ${note}`,
      },
      {
        path: 'flow[2].validation.value',
        nodeId: 'twice',
        message: `value is not a valid RE2 regular expression: invalid escape sequence: \`\\1\` ${note}`,
      },
    ]);
    const after = (await h.call('GET', '/sessions?includeTotal=true&limit=0')).body.totalCount;
    expect(after).toBe(before);
  });

  it('refuses the {nodes, edges} form, both flow and modules, and neither', async () => {
    const graph = await create({ flow: { nodes: [], edges: [] } });
    expect(graph.status).toBe(400);
    expect(JSON.stringify(graph.body.error)).toMatch(/array/i);
    const both = await create({ flow: MINIMAL_FLOW, modules: [{ type: 'emailVerification' }] });
    expect(both.status).toBe(400);
    expect(both.body.error.details).toContainEqual({
      path: 'modules',
      message: 'send either flow or modules, not both',
    });
    const neither = await create({ clientReferenceId: 'x' });
    expect(neither.status).toBe(400);
    expect(neither.body.error.details[0].path).toBe('flow');
  });

  it('compiles legacy modules into a flow and keeps them', async () => {
    const r = await create({ modules: [{ type: 'emailVerification', email: 'a@b.co' }] });
    expect(r.status).toBe(200);
    const s = r.body.session;
    expect(s.settings.modules).toEqual([{ type: 'emailVerification', email: 'a@b.co' }]);
    expect(s.settings.flow.some((n: { type: string }) => n.type === 'two_factor_email')).toBe(true);
    expect(s.settings.flow.some((n: { type: string }) => n.type === 'enter_email')).toBe(false);
    expect(s.settings.providedData.email).toBe('a@b.co');
  });

  it('enforces the limits on metadata and providedData, naming each', async () => {
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    const r = await create({
      flow: MINIMAL_FLOW,
      metadata: { ...many },
      providedData: {
        ['x'.repeat(41)]: 'v',
        long: 'y'.repeat(501),
        referenceImage: 'z'.repeat(100_000),
      },
    });
    expect(r.status).toBe(400);
    const msgs = (r.body.error.details as { path: string; message: string }[]).map(
      (d) => `${d.path}: ${d.message}`,
    );
    expect(msgs).toContain('metadata: metadata has 51 keys; at most 50 are allowed');
    expect(msgs.some((m) => m.startsWith(`providedData.${'x'.repeat(41)}`))).toBe(true);
    expect(msgs.some((m) => m.startsWith('providedData.long') && m.includes('500'))).toBe(true);
    expect(msgs.some((m) => m.startsWith('providedData.referenceImage'))).toBe(false);
    const ok = await create({
      flow: MINIMAL_FLOW,
      metadata: Object.fromEntries(Object.entries(many).slice(0, 50)),
    });
    expect(ok.status).toBe(200);
  });

  it('checks types, unknown parameters, languages, avatar, zone, URLs and origins', async () => {
    const r = await create({
      flow: MINIMAL_FLOW,
      langs: ['en', 'xx'],
      defaultLang: 'fr',
      avatarId: 'ava_nobody',
      zone: 'mars',
      redirectUrl: 'javascript:alert(1)',
      embedOrigins: ['https://shop.example/path'],
      metadata: { n: 1 },
      surprise: true,
    });
    expect(r.status).toBe(400);
    const paths = (r.body.error.details as { path: string }[]).map((d) => d.path);
    for (const p of [
      'langs[1]',
      'defaultLang',
      'avatarId',
      'zone',
      'redirectUrl',
      'embedOrigins[0]',
      'metadata.n',
      'surprise',
    ]) {
      expect(paths).toContain(p);
    }
    const good = await create({
      flow: MINIMAL_FLOW,
      langs: ['fr', 'de'],
      avatarId: 'ava_mira',
      zone: 'es',
      redirectUrl: 'https://shop.example/done',
      embedOrigins: ['https://shop.example/'],
      customization: {
        controls: { showUxControls: false },
        permissionsPage: { backgroundType: 'COLOR' },
      },
    });
    expect(good.status).toBe(200);
    expect(good.body.session.settings).toMatchObject({
      langs: ['fr', 'de'],
      defaultLang: 'fr',
      zone: 'us',
      embedOrigins: ['https://shop.example'],
      redirectUrl: 'https://shop.example/done',
    });
  });

  it('accepts exact https origins only in embedOrigins, and loopback http with a test key', async () => {
    const refused = [
      'https://*.shop.example',
      'https://a.example;script-src',
      'https://a.example,https://b.example',
      'https://a.example https://b.example',
      'https://a.example/path',
      'http://shop.example',
      'http://localhost:5173',
      'https://user:pw@a.example',
      'https://a.example?x=1',
      '*',
      'https://a_b.example',
    ];
    const live = await create(
      { flow: MINIMAL_FLOW, embedOrigins: [...refused, 'https://Shop.Example:443/'] },
      h.keys.live,
    );
    expect(live.status).toBe(400);
    expect(live.body.error.type).toBe('validation_error');
    expect(live.body.error.message).toMatch(
      /^Invalid request parameters: embedOrigins\[0\]: "https:\/\/\*\.shop\.example": wildcards are not accepted/,
    );
    const details = live.body.error.details as { path: string; message: string }[];
    expect(details.map((d) => d.path)).toEqual(refused.map((_, i) => `embedOrigins[${i}]`));
    refused.forEach((o, i) => expect(details[i]!.message).toContain(`"${o}"`));
    expect(details[6]!.message).toContain('test mode');

    const local = ['http://localhost:5173', 'http://127.0.0.1:8080', 'http://[::1]:3000'];
    const test = await create({
      flow: MINIMAL_FLOW,
      embedOrigins: [...local, 'https://Shop.Example:443/', 'https://shop.example:8443'],
    });
    expect(test.status).toBe(200);
    expect(test.body.session.settings.embedOrigins).toEqual([
      ...local,
      'https://shop.example',
      'https://shop.example:8443',
    ]);
    const httpInTest = await create({ flow: MINIMAL_FLOW, embedOrigins: ['http://shop.example'] });
    expect(httpInTest.status).toBe(400);
    expect(httpInTest.body.error.details[0].path).toBe('embedOrigins[0]');
  });

  it('turns malformed JSON, wrong content types, empty and oversized bodies into validation_error', async () => {
    const bad = await h.call('POST', '/sessions', {
      raw: '{"flow": [',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual({
      type: 'validation_error',
      message: 'Request body is not valid JSON',
    });
    const text = await h.call('POST', '/sessions', {
      raw: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(400);
    expect(text.body.error.message).toBe('Content-Type must be application/json');
    const form = await h.call('POST', '/sessions', {
      raw: 'a=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(400);
    const empty = await h.call('POST', '/sessions', {
      raw: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.error.type).toBe('validation_error');
    const huge = await h.call('POST', '/sessions', {
      raw: JSON.stringify({ flow: MINIMAL_FLOW, metadata: { a: 'x'.repeat(9 * 1024 * 1024) } }),
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.status).toBe(400);
    expect(huge.body.error.message).toMatch(/too large: at most 8 MB/);
    const arr = await create([1, 2]);
    expect(arr.status).toBe(400);
    expect(arr.body.error.details[0]).toEqual({
      path: '(body)',
      message: 'the body must be a JSON object',
    });
    const proto = await h.call('POST', '/sessions', {
      raw: '{"flow": [], "__proto__": {"x": 1}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(proto.status).toBe(400);
  });
});

describe('GET /sessions/:id and refresh', () => {
  it('returns the session and its latest secret; unknown ids are not_found_error', async () => {
    const c = await create({ flow: MINIMAL_FLOW });
    const g = await h.call('GET', `/sessions/${c.body.session.id}`);
    expect(g.status).toBe(200);
    expect(g.body.session).toEqual(c.body.session);
    expect(g.body.clientSecret).toEqual(c.body.clientSecret);
    const missing = await h.call('GET', '/sessions/sess_000000000000000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      error: { type: 'not_found_error', message: 'Session not found' },
    });
    const missingRefresh = await h.call('GET', '/sessions/sess_nope/refresh');
    expect(missingRefresh.status).toBe(404);
  });

  it('refresh answers a new secret (the object itself) and GET shows it', async () => {
    const c = await create({ flow: MINIMAL_FLOW });
    const r = await h.call('GET', `/sessions/${c.body.session.id}/refresh`);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['createdAt', 'expireAt', 'secret', 'url']);
    expect(r.body.secret).not.toBe(c.body.clientSecret.secret);
    const g = await h.call('GET', `/sessions/${c.body.session.id}`);
    expect(g.body.clientSecret.secret).toBe(r.body.secret);
  });

  it('serves every operation under /v1 too', async () => {
    const c = await h.call('POST', '/v1/sessions', { body: { flow: MINIMAL_FLOW } });
    expect(c.status).toBe(200);
    const id = c.body.session.id;
    expect((await h.call('GET', `/v1/sessions/${id}`)).status).toBe(200);
    expect((await h.call('GET', `/v1/sessions/${id}/refresh`)).status).toBe(200);
    expect((await h.call('GET', '/v1/sessions?limit=1')).status).toBe(200);
    expect((await h.call('GET', '/v1/avatars')).status).toBe(200);
    expect((await h.call('GET', '/v1/langs')).status).toBe(200);
  });
});

describe('authentication and modes', () => {
  it('answers 401 api_key_missing / api_key_invalid, and revoked keys stop working', async () => {
    const none = await h.call('GET', '/langs', { key: null });
    expect(none.status).toBe(401);
    expect(none.body.error).toMatchObject({
      type: 'authentication_error',
      code: 'api_key_missing',
    });
    const basic = await h.call('GET', '/langs', {
      key: null,
      headers: { authorization: 'Basic abc' },
    });
    expect(basic.body.error.code).toBe('api_key_missing');
    const wrong = await h.call('GET', '/langs', { key: 'sk_test_thisisnotarealkeyatall00000' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toEqual({
      type: 'authentication_error',
      message: 'Invalid API key provided',
      code: 'api_key_invalid',
    });
    const prod = await h.call('GET', '/langs', { key: 'sk_prod_whatever' });
    expect(prod.body.error.code).toBe('api_key_invalid');
    const { createApiKey } = await import('../keys');
    const { key } = await createApiKey(h.store, {
      accountName: 'acme',
      mode: 'test',
      now: Date.now(),
    });
    expect((await h.call('GET', '/langs', { key })).status).toBe(200);
    const revoked = await h.store.revokeApiKey(key.slice(0, 20), Date.now());
    expect('revoked' in revoked).toBe(true);
    expect((await h.call('GET', '/langs', { key })).body.error.code).toBe('api_key_invalid');
  });

  it('keeps test and live data apart, and accounts apart', async () => {
    const live = await create({ flow: MINIMAL_FLOW, clientReferenceId: 'live-only' }, h.keys.live);
    expect(live.body.session.livemode).toBe(true);
    const test = await create({ flow: MINIMAL_FLOW, clientReferenceId: 'test-only' });
    const liveId = live.body.session.id;
    const testId = test.body.session.id;
    expect((await h.call('GET', `/sessions/${liveId}`, { key: h.keys.test })).status).toBe(404);
    expect((await h.call('GET', `/sessions/${testId}`, { key: h.keys.live })).status).toBe(404);
    expect((await h.call('GET', `/sessions/${liveId}/refresh`, { key: h.keys.test })).status).toBe(
      404,
    );
    expect((await h.call('GET', `/sessions/${testId}`, { key: h.keys.otherTest })).status).toBe(
      404,
    );
    const testList = await h.call('GET', '/sessions?limit=100', { key: h.keys.test });
    expect(testList.body.sessions.every((s: { livemode: boolean }) => !s.livemode)).toBe(true);
    expect(testList.body.sessions.some((s: { id: string }) => s.id === liveId)).toBe(false);
    const liveList = await h.call('GET', '/sessions?clientReferenceId=test-only', {
      key: h.keys.live,
    });
    expect(liveList.body.sessions).toEqual([]);
    const otherList = await h.call('GET', '/sessions', { key: h.keys.otherTest });
    expect(otherList.body.sessions.some((s: { id: string }) => s.id === testId)).toBe(false);
  });
});

describe('errors and versions', () => {
  it('answers not_found_error for unknown routes and methods, with Service-Version', async () => {
    const r = await h.call('GET', '/nothing/here', { key: null });
    expect(r.status).toBe(404);
    expect(r.body.error.type).toBe('not_found_error');
    expect(r.headers.get('service-version')).toBe('2026-11-27');
    const del = await h.call('DELETE', '/sessions');
    expect(del.status).toBe(404);
    expect(del.body.error.type).toBe('not_found_error');
  });

  it('refuses an unknown Service-Version, listing the known ones', async () => {
    const r = await h.call('GET', '/langs', { headers: { 'service-version': '2024-12-31' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ type: 'validation_error', code: 'version_unknown' });
    expect(r.body.error.message).toContain('2026-11-27, 2025-09-01, 2025-01-01');
    // Refused in the latest version, and it says so.
    expect(r.headers.get('service-version')).toBe('2026-11-27');
  });

  it('stamps the request’s version on errors thrown after routing too', async () => {
    const legacy = { 'service-version': '2025-01-01' };
    const badJson = await h.call('POST', '/sessions', {
      headers: { ...legacy, 'content-type': 'application/json' },
      raw: '{"flow":',
    });
    expect(badJson.status).toBe(400);
    expect(badJson.headers.get('service-version')).toBe('2025-01-01');
    const noKey = await h.call('GET', '/sessions', { key: null, headers: legacy });
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get('service-version')).toBe('2025-01-01');
  });

  it('serves the legacy version: statuses, seconds, wrapped refresh, zone es, required clientReferenceId', async () => {
    const legacy = { 'service-version': '2025-01-01' };
    const noRef = await create({ flow: MINIMAL_FLOW }, undefined, legacy);
    expect(noRef.status).toBe(400);
    expect(noRef.body.error.details).toContainEqual({
      path: 'clientReferenceId',
      message: 'clientReferenceId is required in version 2025-01-01',
    });
    const c = await create(
      { flow: MINIMAL_FLOW, clientReferenceId: 'old-1', zone: 'us' },
      undefined,
      legacy,
    );
    expect(c.status).toBe(200);
    expect(c.headers.get('service-version')).toBe('2025-01-01');
    const s = c.body.session;
    expect(s.status).toBe('requiresInput');
    expect(s.version).toBe('2025-01-01');
    expect(s.settings.zone).toBe('es');
    expect(s.createdAt).toBeLessThan(10_000_000_000);
    expect(Math.abs(s.createdAt - Date.now() / 1000)).toBeLessThan(60);
    expect(c.body.clientSecret.expireAt - c.body.clientSecret.createdAt).toBe(3600);
    const latest = await h.call('GET', `/sessions/${s.id}`);
    expect(latest.body.session.status).toBe('created');
    expect(latest.body.session.createdAt).toBeGreaterThan(1e12);
    expect(latest.body.session.settings.zone).toBe('us');
    const refresh = await h.call('GET', `/sessions/${s.id}/refresh`, { headers: legacy });
    expect(Object.keys(refresh.body)).toEqual(['clientSecret']);
    expect(refresh.body.clientSecret.createdAt).toBeLessThan(10_000_000_000);
    const avatars = await h.call('GET', '/avatars', { headers: legacy });
    expect(avatars.body.avatars[0].createdAt).toBeLessThan(10_000_000_000);
    const list = await h.call('GET', `/sessions?clientReferenceId=old-1&status=requiresInput`, {
      headers: legacy,
    });
    expect(list.body.sessions.map((x: { id: string }) => x.id)).toEqual([s.id]);
    expect(list.body.sessions[0].status).toBe('requiresInput');
    // fromDate in seconds in the legacy version
    const fromSeconds = Math.floor(Date.now() / 1000) - 120;
    const dated = await h.call('GET', `/sessions?clientReferenceId=old-1&fromDate=${fromSeconds}`, {
      headers: legacy,
    });
    expect(dated.body.sessions).toHaveLength(1);
    const tooLate = await h.call('GET', `/sessions?clientReferenceId=old-1&toDate=${fromSeconds}`, {
      headers: legacy,
    });
    expect(tooLate.body.sessions).toHaveLength(0);
  });
});

describe('catalog', () => {
  it('lists four avatars with images served here, and the nine languages', async () => {
    const a = await h.call('GET', '/avatars');
    expect(a.status).toBe(200);
    expect(a.body.avatars.length).toBeGreaterThanOrEqual(4);
    for (const av of a.body.avatars) {
      expect(['male', 'female', 'unknown']).toContain(av.gender);
      expect(av.createdAt).toBeGreaterThan(1e12);
      expect(av.imageUrl).toMatch(/^http:\/\/idv\.test\/avatars\/[a-z]+\.svg$/);
    }
    const l = await h.call('GET', '/langs');
    expect(l.body.langs.map((x: { id: string }) => x.id)).toEqual([
      'en',
      'fr',
      'de',
      'ru',
      'es',
      'id',
      'no',
      'pt',
      'it',
    ]);
  });
});
