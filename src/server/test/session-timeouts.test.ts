import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../clock';
import { startHarness, type Harness } from './harness';

/** permissions → a conversation with a prompt → end */
const FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  {
    id: 'perm',
    type: 'permissions',
    outcomes: { permissionsGranted: 'ask', permissionsDenied: 'end' },
  },
  {
    id: 'ask',
    type: 'conversation',
    prompt: 'Say: Are you ready?',
    outcomes: [{ id: 'yes', condition: '', targetNodeId: 'end' }],
  },
  { id: 'end', type: 'end' },
];

const MIN = 60 * 1000;
const HOUR = 60 * MIN;

const clock = manualClock(Date.UTC(2025, 9, 1, 9));
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ clock, rateLimits: false });
});
afterAll(async () => {
  await h.close();
});

async function create(on: Harness = h) {
  const r = await on.call('POST', '/sessions', {
    key: on.keys.live,
    body: { flow: FLOW, langs: ['en', 'fr'] },
  });
  expect(r.status).toBe(200);
  return { id: r.body.session.id as string, secret: r.body.clientSecret.secret as string };
}

const exchange = (secret: string, on: Harness = h) =>
  on.call('POST', '/client/exchange', { key: null, body: { clientSecret: secret } });

function client(token: string, on: Harness = h) {
  return (method: string, path: string, body?: unknown) =>
    on.call(method, `/client${path}`, { key: token, ...(body !== undefined ? { body } : {}) });
}

const statusOf = async (id: string, on: Harness = h) =>
  (await on.call('GET', `/sessions/${id}`, { key: on.keys.live })).body.session.status as string;

describe('activity', () => {
  it('choosing the language or reading a prompt again does not keep a session alive', async () => {
    const s = await create();
    const c = client((await exchange(s.secret)).body.token);
    await c('POST', '/nodes/perm/result', { outcome: 'permissionsGranted' });
    for (let i = 0; i < 6; i++) {
      clock.advance(10 * MIN);
      // Within its idle time each call is answered, and none of them counts as activity.
      const lang = await c('POST', '/lang', { lang: i % 2 ? 'en' : 'fr' });
      if (i < 2) {
        expect(lang.body).toEqual({ lang: i % 2 ? 'en' : 'fr' });
        expect((await c('GET', '/nodes/ask/prompt')).body.text).toBe('Are you ready?');
      }
    }
    const reply = await c('POST', '/nodes/ask/reply', { text: 'yes' });
    expect(reply.body.error.code).toBe('session_finished');
    expect(await statusOf(s.id)).toBe('incomplete');
  });

  it('a step or a reply does count', async () => {
    const s = await create();
    const c = client((await exchange(s.secret)).body.token);
    clock.advance(25 * MIN);
    await c('POST', '/nodes/perm/result', { outcome: 'permissionsGranted' });
    clock.advance(25 * MIN);
    const reply = await c('POST', '/nodes/ask/reply', { text: 'yes' });
    expect(reply.body.position.status).toBe('complete');
  });
});

describe('a session past its unopened limit', () => {
  it('cannot be opened with a secret refreshed before the limit, even before the sweeper runs', async () => {
    const s = await create();
    clock.advance(23 * HOUR + 50 * MIN);
    const fresh = await h.call('GET', `/sessions/${s.id}/refresh`, { key: h.keys.live });
    expect(fresh.status).toBe(200);
    clock.advance(15 * MIN);
    const late = await exchange(fresh.body.secret);
    expect(late.status).toBe(401);
    expect(late.body.error.code).toBe('client_secret_expired');
    expect(await statusOf(s.id)).toBe('incomplete');
    const events = await h.store.listEvents({ sessionId: s.id });
    expect(events.map((e) => e.type)).toEqual(['session.status', 'session.status']);
  });

  it('cannot be refreshed, even before the sweeper runs', async () => {
    const s = await create();
    clock.advance(24 * HOUR + MIN);
    const r = await h.call('GET', `/sessions/${s.id}/refresh`, { key: h.keys.live });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('session_finished');
    expect(await statusOf(s.id)).toBe('incomplete');
  });
});

describe('timeouts set by the operator', () => {
  it('an app made with a few seconds ends idle and unopened sessions after them', async () => {
    const own = manualClock(Date.UTC(2025, 9, 2, 9));
    const short = await startHarness({
      clock: own,
      rateLimits: false,
      sessionTimeouts: { idleMs: 5000, unopenedMs: 20_000 },
    });
    try {
      const opened = await create(short);
      const unopened = await create(short);
      const c = client((await exchange(opened.secret, short)).body.token, short);
      own.advance(4000);
      expect(
        (await c('POST', '/nodes/perm/result', { outcome: 'permissionsGranted' })).status,
      ).toBe(200);
      own.advance(5000);
      expect((await c('POST', '/nodes/ask/reply', { text: 'yes' })).body.error.code).toBe(
        'session_finished',
      );
      expect(await statusOf(unopened.id, short)).toBe('created');
      own.advance(12_000);
      expect(await short.app.sweeper.runOnce()).toBe(1);
      expect(await statusOf(unopened.id, short)).toBe('incomplete');
    } finally {
      await short.close();
    }
  });
});
