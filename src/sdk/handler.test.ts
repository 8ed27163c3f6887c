import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { WebhookEvent } from './event';
import { expressWebhookHandler } from './express';
import { fastifyWebhookPlugin } from './fastify';
import { createWebhookHandler } from './handler';
import { signWebhookPayload } from './signature';

const SECRET = 'whsec_handler_test';

function event(id: string): WebhookEvent {
  return { id, type: 'session.status', createdAt: Date.now(), sessionId: 'ses_1' };
}

function signed(body: string, secret = SECRET, timestamp = Date.now()) {
  return {
    'content-type': 'application/json',
    'x-service-signature': signWebhookPayload({ rawBody: body, secrets: [secret], timestamp }),
  };
}

describe('createWebhookHandler', () => {
  it('answers 400 to a validly signed body that is not an event', async () => {
    const handle = createWebhookHandler({ secret: SECRET, onEvent: () => {} });
    for (const body of ['not json', '{"id":"x"}']) {
      const r = await handle({ rawBody: body, headers: signed(body) });
      expect(r.status).toBe(400);
    }
  });

  it('runs onEvent once for two copies arriving together', async () => {
    let calls = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const handle = createWebhookHandler({
      secret: SECRET,
      onEvent: async () => {
        calls++;
        await gate;
      },
    });
    const body = JSON.stringify(event('evt_same'));
    const a = handle({ rawBody: body, headers: signed(body) });
    const b = handle({ rawBody: body, headers: signed(body) });
    release();
    const results = await Promise.all([a, b]);
    expect(calls).toBe(1);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(results[1]!.body).toEqual({ received: true, duplicate: true });
  });

  it('does not remember an event whose processing failed, so the retry is processed', async () => {
    let attempts = 0;
    const handle = createWebhookHandler({
      secret: SECRET,
      onEvent: () => {
        attempts++;
        if (attempts === 1) throw new Error('database down');
      },
    });
    const body = JSON.stringify(event('evt_retry'));
    expect((await handle({ rawBody: body, headers: signed(body) })).status).toBe(500);
    const second = await handle({ rawBody: body, headers: signed(body) });
    expect(second).toEqual({ status: 200, body: { received: true } });
    expect(attempts).toBe(2);
  });

  it('uses the given clock for the tolerance', async () => {
    const handle = createWebhookHandler({
      secret: SECRET,
      now: () => 10 * 60_000,
      onEvent: () => {},
    });
    const body = JSON.stringify(event('evt_old'));
    const r = await handle({ rawBody: body, headers: signed(body, SECRET, 0) });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ error: { code: 'timestamp_out_of_tolerance' } });
  });
});

/** The behaviour every adapter must show over real HTTP. */
function receiverContract(start: (onEvent: (e: WebhookEvent) => void) => Promise<string>) {
  it('accepts a signed event once, de-duplicates a repeat, refuses a forgery', async () => {
    const got: string[] = [];
    const url = await start((e) => got.push(e.id));
    const body = JSON.stringify(event('evt_a'));

    const first = await fetch(url, { method: 'POST', headers: signed(body), body });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true });

    const again = await fetch(url, { method: 'POST', headers: signed(body), body });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ received: true, duplicate: true });

    const tampered = body.replace('evt_a', 'evt_b');
    const forged = await fetch(url, { method: 'POST', headers: signed(body), body: tampered });
    expect(forged.status).toBe(401);

    const wrongKey = await fetch(url, { method: 'POST', headers: signed(body, 'nope'), body });
    expect(wrongKey.status).toBe(401);
    expect(got).toEqual(['evt_a']);
  });
}

describe('expressWebhookHandler over node:http', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  const listen = async (s: Server) => {
    server = s;
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`;
  };

  describe('reading the stream itself (no body parser)', () => {
    receiverContract((onEvent) => {
      const h = expressWebhookHandler({ secret: SECRET, onEvent });
      return listen(createServer((req, res) => void h(req, res)));
    });
  });

  describe('after express.raw() put a Buffer in req.body', () => {
    receiverContract((onEvent) => {
      const h = expressWebhookHandler({ secret: SECRET, onEvent });
      return listen(
        createServer(async (req, res) => {
          const chunks: Buffer[] = [];
          for await (const c of req) chunks.push(c as Buffer);
          Object.assign(req, { body: Buffer.concat(chunks) });
          await h(req, res);
        }),
      );
    });
  });

  it('explains the fix when express.json() parsed the body first (500, so it is retried)', async () => {
    const h = expressWebhookHandler({ secret: SECRET, onEvent: () => {} });
    const url = await listen(
      createServer(async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        Object.assign(req, { body: JSON.parse(Buffer.concat(chunks).toString()) });
        await h(req, res);
      }),
    );
    const body = JSON.stringify(event('evt_parsed'));
    const r = await fetch(url, { method: 'POST', headers: signed(body), body });
    expect(r.status).toBe(500);
    expect(JSON.stringify(await r.json())).toContain('express.raw');
  });
});

describe('fastifyWebhookPlugin', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
  });

  receiverContract(async (onEvent) => {
    app = Fastify();
    await app.register(fastifyWebhookPlugin({ path: '/hook', secret: SECRET, onEvent }));
    // Outside the plugin's scope JSON is still parsed normally.
    app.post('/other', async (req) => ({ echoed: req.body }));
    const addr = await app.listen({ port: 0, host: '127.0.0.1' });
    const other = await fetch(`${addr}/other`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"x":1}',
    });
    expect(await other.json()).toEqual({ echoed: { x: 1 } });
    return `${addr}/hook`;
  });
});
