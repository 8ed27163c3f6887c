import { Type } from '@sinclair/typebox';
import Ajv2020 from 'ajv/dist/2020';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientAnswers } from '../http/routeDocs';
import { MINIMAL_FLOW, startHarness, type Harness } from './harness';

type Json = Record<string, unknown>;
let h: Harness;
let doc: Json;
const ajv = new Ajv2020({ strict: false, allErrors: true });

beforeAll(async () => {
  h = await startHarness({ rateLimits: { test: 1000, live: 1000, badKeyPerIp: 3 } });
  doc = (await h.call('GET', '/openapi.json', { key: null })).body;
});
afterAll(async () => h.close());

/** The response schema the served document gives for a path, method and status, refs made local. */
function schemaFor(path: string, method: string, status: number): Json {
  const op = (doc['paths'] as Json)[path] as Json | undefined;
  const responses = (op?.[method] as Json | undefined)?.['responses'] as Json | undefined;
  const response = responses?.[String(status)] as Json | undefined;
  const schema = (
    (response?.['content'] as Json | undefined)?.['application/json'] as Json | undefined
  )?.['schema'];
  if (!schema) throw new Error(`no schema for ${method} ${path} ${status}`);
  const defs = (doc['components'] as Json)['schemas'];
  const text = JSON.stringify({ ...(schema as Json), $defs: defs }).replaceAll(
    '#/components/schemas/',
    '#/$defs/',
  );
  return JSON.parse(text) as Json;
}

function expectMatches(path: string, method: string, r: { status: number; body: unknown }) {
  const validate = ajv.compile(schemaFor(path, method, r.status));
  const ok = validate(r.body);
  expect(ok ? [] : validate.errors, `${method} ${path} ${r.status}`).toEqual([]);
}

describe('GET /openapi.json', () => {
  it('is an OpenAPI 3.1 document with every operation', () => {
    expect(doc['openapi']).toBe('3.1.0');
    const paths = Object.keys(doc['paths'] as Json);
    for (const p of [
      '/sessions',
      '/sessions/{sessionId}',
      '/sessions/{sessionId}/refresh',
      '/avatars',
      '/langs',
      '/client/exchange',
    ]) {
      expect(paths).toContain(p);
    }
    const components = Object.keys((doc['components'] as Json)['schemas'] as Json);
    for (const c of [
      'Session',
      'ClientSecret',
      'Error',
      'Report',
      'NodeReport',
      'Avatar',
      'Language',
      'CreateSessionRequest',
    ]) {
      expect(components).toContain(c);
    }
    expect(doc['servers']).toEqual([{ url: 'http://idv.test' }]);
    const schemes = (doc['components'] as Json)['securitySchemes'] as Json;
    expect(Object.keys(schemes).sort()).toEqual(['apiKey', 'clientToken']);
  });

  it('lists every route the server registers, and only those', async () => {
    // Fastify's route tree, one segment per line, indented by depth: rebuilt into full paths.
    const tree = h.app.printRoutes({ commonPrefix: false });
    const served = new Set<string>();
    const stack: string[] = [];
    for (const line of tree.split('\n')) {
      const m = /^([│ ]*)[├└]── (\S+) \(([A-Z, ]+)\)/.exec(line);
      if (!m) continue;
      const depth = (m[1] as string).length / 4;
      stack.length = depth;
      stack.push(m[2] as string);
      const path = stack
        .join('')
        .replace(/^\/v1\//, '/')
        .replace(/:\w+/g, '{}');
      for (const method of (m[3] as string).split(', ')) {
        // The document does not describe itself.
        if (method !== 'HEAD' && path !== '/openapi.json')
          served.add(`${method.toLowerCase()} ${path}`);
      }
    }
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc['paths'] as Json)) {
      for (const method of Object.keys(ops as Json)) {
        documented.add(`${method} ${path.replace(/\{\w+\}/g, '{}')}`);
      }
    }
    expect(served.size).toBeGreaterThan(25);
    expect([...served].filter((r) => !documented.has(r)).sort()).toEqual([]);
    expect([...documented].filter((r) => !served.has(r)).sort()).toEqual([]);
  });

  it('describes what the server really answers, successes and errors', async () => {
    const created = await h.call('POST', '/sessions', {
      body: {
        flow: MINIMAL_FLOW,
        metadata: { a: 'b' },
        customization: { controls: { showUxControls: true } },
      },
    });
    expectMatches('/sessions', 'post', created);
    const id = created.body.session.id;
    expectMatches('/sessions', 'post', await h.call('POST', '/sessions', { body: { flow: [] } }));
    expectMatches('/sessions', 'get', await h.call('GET', '/sessions?includeTotal=true&limit=2'));
    expectMatches('/sessions', 'get', await h.call('GET', '/sessions?limit=500'));
    expectMatches('/sessions/{sessionId}', 'get', await h.call('GET', `/sessions/${id}`));
    expectMatches('/sessions/{sessionId}', 'get', await h.call('GET', '/sessions/sess_missing'));
    expectMatches('/avatars', 'get', await h.call('GET', '/avatars'));
    expectMatches('/langs', 'get', await h.call('GET', '/langs'));
    expectMatches('/langs', 'get', await h.call('GET', '/langs', { key: null }));

    const secret = (await h.call('GET', `/sessions/${id}/refresh`)).body;
    expectMatches('/sessions/{sessionId}/refresh', 'get', { status: 200, body: secret });
    const ex = await h.call('POST', '/client/exchange', {
      key: null,
      body: { clientSecret: secret.secret },
    });
    expectMatches('/client/exchange', 'post', ex);
    const t = ex.body.token as string;
    expectMatches('/client/session', 'get', await h.call('GET', '/client/session', { key: t }));
    expectMatches(
      '/client/lang',
      'post',
      await h.call('POST', '/client/lang', { key: t, body: { lang: 'fr' } }),
    );
    expectMatches(
      '/client/nodes/{nodeId}/prompt',
      'get',
      await h.call('GET', '/client/nodes/perm/prompt', { key: t }),
    );
    expectMatches(
      '/client/nodes/{nodeId}/result',
      'post',
      await h.call('POST', '/client/nodes/perm/result', {
        key: t,
        body: { outcome: 'permissionsGranted' },
      }),
    );
    expectMatches('/client/exit', 'post', await h.call('POST', '/client/exit', { key: t }));
    expectMatches(
      '/client/exchange',
      'post',
      await h.call('POST', '/client/exchange', {
        key: null,
        body: { clientSecret: secret.secret },
      }),
    );

    // 401s until the IP flood limit answers 429: both documented.
    for (let i = 0; i < 4; i++) {
      expectMatches(
        '/sessions',
        'get',
        await h.call('GET', '/sessions', { key: 'sk_test_nonononononononononono' }),
      );
    }
  });
});

describe('the document is generated from the routes', () => {
  it('documents a route from the schema Fastify checks its requests with', async () => {
    const Note = Type.Object(
      { text: Type.String({ maxLength: 5 }) },
      { additionalProperties: false, $id: 'Note' },
    );
    const x = await startHarness({
      extraRoutes: [
        (app) => {
          const schema = { tags: ['client'], summary: 'Keep a note', body: Note };
          app.post(
            '/notes',
            { schema: { ...schema, response: clientAnswers(Note) } },
            (r) => r.body,
          );
          // Untagged: not part of the API, not documented.
          app.post('/internal', { schema: { body: Note } }, (r) => r.body);
        },
      ],
    });
    try {
      const generated = (await x.call('GET', '/openapi.json', { key: null })).body;
      const op = generated.paths['/notes'].post;
      expect(op.summary).toBe('Keep a note');
      expect(op.requestBody.content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/Note',
      });
      expect(op.responses['200'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/Note',
      });
      expect(generated.components.schemas.Note.properties).toEqual({
        text: { maxLength: 5, type: 'string' },
      });
      expect(generated.paths['/internal']).toBeUndefined();
      const bad = await x.call('POST', '/notes', { key: null, body: { text: 'longer', x: 1 } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details).toEqual([
        { path: 'x', message: 'unknown parameter "x"' },
        { path: 'text', message: 'expected string length less or equal to 5' },
      ]);
      const ok = await x.call('POST', '/notes', { key: null, body: { text: 'short' } });
      expect(ok.body).toEqual({ text: 'short' });
    } finally {
      await x.close();
    }
  });
});
