import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../clock';
import { MINIMAL_FLOW, startHarness, type Harness } from './harness';

// Consent before the first capture: the user's choice, the text's version and the time are kept
// in the report; declining ends the session `incomplete` with its own reason.

const clock = manualClock(Date.UTC(2026, 10, 25, 12));
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ clock, rateLimits: false });
});
afterAll(async () => {
  await h.close();
});

async function open(body: Record<string, unknown> = { flow: MINIMAL_FLOW }) {
  const made = await h.call('POST', '/sessions', { body });
  expect(made.status).toBe(200);
  const ex = await h.call('POST', '/client/exchange', {
    key: null,
    body: { clientSecret: made.body.clientSecret.secret },
  });
  const token = ex.body.token as string;
  const c = (method: string, path: string, b?: unknown) =>
    h.call(method, `/client${path}`, { key: token, ...(b !== undefined ? { body: b } : {}) });
  const report = async () =>
    (await h.call('GET', `/sessions/${made.body.session.id}`)).body.session;
  return { c, report };
}

describe('POST /client/consent', () => {
  it('keeps an agreement in the report and shows it to the page; the first choice stands', async () => {
    const { c, report } = await open();
    const at = clock.now();
    const r = await c('POST', '/consent', { choice: 'accepted', textVersion: '2026-11-25' });
    expect(r.status).toBe(200);
    const record = { choice: 'accepted', textVersion: '2026-11-25', at };
    expect(r.body.consent).toEqual(record);
    expect(r.body.position).toMatchObject({ nodeId: 'perm', status: 'active' });
    expect((await report()).report.consent).toEqual(record);
    expect((await c('GET', '/session')).body.session.consent).toEqual(record);

    clock.advance(1000);
    const again = await c('POST', '/consent', { choice: 'declined', textVersion: 'x' });
    expect(again.body.consent).toEqual(record);
    expect((await report()).status).toBe('inProgress');
  });

  it('ends the session incomplete when the user declines', async () => {
    const { c, report } = await open();
    const r = await c('POST', '/consent', { choice: 'declined', textVersion: '2026-11-25' });
    expect(r.status).toBe(200);
    expect(r.body.position).toMatchObject({ status: 'incomplete', endReason: 'declined' });
    const s = await report();
    expect(s.status).toBe('incomplete');
    expect(s.report.isVerified).toBe(false);
    expect(s.report.consent).toMatchObject({ choice: 'declined', textVersion: '2026-11-25' });
  });

  it('refuses a choice that is neither', async () => {
    const { c } = await open();
    const r = await c('POST', '/consent', { choice: 'maybe', textVersion: '1' });
    expect(r.status).toBe(400);
    expect(r.body.error.type).toBe('validation_error');
    expect(r.body.error.message).toMatch(/choice/);
  });
});

describe('customization.consent', () => {
  it('takes the organisation, privacy link and retention, and refuses a link that is no URL', async () => {
    const consent = {
      organizationName: 'Acme',
      privacyUrl: 'https://acme.test/p',
      retentionDays: 30,
    };
    const { c } = await open({ flow: MINIMAL_FLOW, customization: { consent } });
    expect((await c('GET', '/session')).body.session.settings.customization.consent).toEqual(
      consent,
    );
    const bad = await h.call('POST', '/sessions', {
      body: { flow: MINIMAL_FLOW, customization: { consent: { privacyUrl: 'not a link' } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toContainEqual({
      path: 'customization.consent.privacyUrl',
      message: '"not a link" is not a URL',
    });
  });
});
