import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDOFF_TTL_MS } from '../../core/api';
import { manualClock } from '../clock';
import { startHarness, type Harness } from './harness';

/** A camera node between two ends: the page offers the phone in front of it. */
const CAMERA_FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  {
    id: 'perm',
    type: 'permissions',
    outcomes: { permissionsGranted: 'face', permissionsDenied: 'denied' },
  },
  {
    id: 'face',
    type: 'liveness_detection',
    outcomes: {
      livenessDetected: 'done',
      deepfakeDetected: 'denied',
      noFace: 'denied',
      inconclusive: 'denied',
    },
  },
  { id: 'done', type: 'end' },
  { id: 'denied', type: 'end' },
];

const clock = manualClock(Date.UTC(2025, 9, 1, 9));
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ clock, rateLimits: false });
});
afterAll(async () => {
  await h.close();
});

function client(token: string) {
  return (method: string, path: string, body?: unknown) =>
    h.call(method, `/client${path}`, { key: token, ...(body !== undefined ? { body } : {}) });
}

/** A live session opened on the "desktop": its client and a fresh hand-off link. */
async function openedOnDesktop() {
  const created = await h.call('POST', '/sessions', {
    key: h.keys.live,
    body: { flow: CAMERA_FLOW },
  });
  expect(created.status).toBe(200);
  const ex = await h.call('POST', '/client/exchange', {
    key: null,
    body: { clientSecret: created.body.clientSecret.secret },
  });
  expect(ex.status).toBe(200);
  const desktop = client(ex.body.token as string);
  const offer = await desktop('POST', '/handoff');
  expect(offer.status).toBe(200);
  return { id: created.body.session.id as string, desktop, offer: offer.body };
}

const claim = (code: string) =>
  h.call('POST', '/client/handoff/claim', { key: null, body: { code } });

describe('continue on a phone', () => {
  it('offers a short single-use link that moves the session to the phone', async () => {
    const { id, desktop, offer } = await openedOnDesktop();
    expect(offer.code).toMatch(/^[A-Z2-9]{12}$/);
    expect(offer.url).toBe(`http://idv.test/p/${offer.code}`);
    expect(offer.expiresAt).toBe(clock.now() + HANDOFF_TTL_MS);
    expect((await desktop('GET', '/handoff')).body).toMatchObject({
      state: 'offered',
      position: { nodeId: 'perm' },
    });

    // Typed by hand from the screen: lower case and the groups' dashes are accepted.
    const typed = `${offer.code.slice(0, 4)}-${offer.code.slice(4)}`.toLowerCase();
    const phoneOpen = await claim(typed);
    expect(phoneOpen.status).toBe(200);
    expect(phoneOpen.body.token).toMatch(/^ct_/);
    expect(phoneOpen.body.session.id).toBe(id);
    expect(phoneOpen.body.position.nodeId).toBe('perm');
    const phone = client(phoneOpen.body.token as string);

    // The desktop can no longer act on the session's steps…
    const refused = await desktop('POST', '/nodes/perm/result', { outcome: 'permissionsGranted' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      type: 'validation_error',
      code: 'session_on_phone',
    });
    expect((await desktop('POST', '/exit')).body.error.code).toBe('session_on_phone');
    expect((await desktop('POST', '/handoff')).body.error.code).toBe('session_on_phone');

    // …the phone can, and the desktop watches it move.
    const moved = await phone('POST', '/nodes/perm/result', { outcome: 'permissionsGranted' });
    expect(moved.status).toBe(200);
    expect(moved.body.position.nodeId).toBe('face');
    const watched = await desktop('GET', '/handoff');
    expect(watched.body).toMatchObject({ state: 'claimed', position: { nodeId: 'face' } });
    const resumed = await desktop('GET', '/session');
    expect(resumed.status).toBe(200);
    expect(resumed.body.onPhone).toBe(true);
    expect((await phone('GET', '/session')).body.onPhone).toBeUndefined();

    await phone('POST', '/exit');
    expect((await desktop('GET', '/handoff')).body.position.status).toBe('incomplete');
  });

  it('works once: a second opening is handoff_used, an unknown code handoff_invalid', async () => {
    const { offer } = await openedOnDesktop();
    expect((await claim(offer.code)).status).toBe(200);
    const again = await claim(offer.code);
    expect(again.status).toBe(401);
    expect(again.body.error).toMatchObject({
      type: 'authentication_error',
      code: 'handoff_used',
    });
    expect(again.body.error.message).toMatch(/already been opened/);
    const unknown = await claim('ABCDEFGHJKMN');
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('handoff_invalid');
    const empty = await claim('');
    expect(empty.status).toBe(400);
    expect(empty.body.error.type).toBe('validation_error');
  });

  it('expires after 10 minutes on the server clock', async () => {
    const early = await openedOnDesktop();
    const late = await openedOnDesktop();
    clock.advance(HANDOFF_TTL_MS - 1);
    expect((await claim(early.offer.code)).status).toBe(200);
    clock.advance(1);
    const r = await claim(late.offer.code);
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('handoff_expired');
    expect((await late.desktop('GET', '/handoff')).body.state).toBe('expired');
    // The desktop may ask for a new one, which works.
    const fresh = await late.desktop('POST', '/handoff');
    expect((await claim(fresh.body.code)).status).toBe(200);
  });

  it('a newer link replaces an unclaimed one', async () => {
    const { desktop, offer } = await openedOnDesktop();
    const newer = await desktop('POST', '/handoff');
    expect((await claim(offer.code)).body.error.code).toBe('handoff_expired');
    expect((await claim(newer.body.code)).status).toBe(200);
  });

  it('of two phones racing for one link, exactly one wins', async () => {
    const { offer } = await openedOnDesktop();
    const answers = await Promise.all([claim(offer.code), claim(offer.code), claim(offer.code)]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 401, 401]);
    for (const a of answers.filter((x) => x.status === 401)) {
      expect(a.body.error.code).toBe('handoff_used');
    }
  });

  it('refuses a link of a session that has ended: session_finished', async () => {
    const { desktop, offer } = await openedOnDesktop();
    await desktop('POST', '/exit');
    const r = await claim(offer.code);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('session_finished');
    expect((await desktop('POST', '/handoff')).body.error.code).toBe('session_finished');
  });

  it('serves the short link as a redirect to the page with the code', async () => {
    const webDir = mkdtempSync(join(tmpdir(), 'idv-web-'));
    writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>page</title>');
    const withPage = await startHarness({ clock, rateLimits: false, webDir });
    try {
      const r = await withPage.app.inject({ method: 'GET', url: '/p/ABCDEFGHJKMN' });
      expect(r.statusCode).toBe(302);
      expect(r.headers.location).toBe('/verify?handoff=ABCDEFGHJKMN');
      expect(r.headers['cache-control']).toBe('no-store');
    } finally {
      await withPage.close();
      rmSync(webDir, { recursive: true, force: true });
    }
  });
});
