import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../clock';
import { smtpMailer } from '../otp/mailer';
import { startHarness, type Harness } from './harness';
import { startSmtp } from './smtp';

const outcomes = { failed_unverified: 'end', delivery_failed: 'end', cancelled: 'end' };

/** An email typed by the user (enter_email), then its code. */
const enteredFlow = [
  { id: 'start', type: 'start', outcome: 'email' },
  { id: 'email', type: 'enter_email', outcomes: { emailEntered: 'otp', canceled: 'end' } },
  {
    id: 'otp',
    type: 'two_factor_email',
    resendAfterSeconds: 10,
    outcomes: { ...outcomes, verified: 'end' },
  },
  { id: 'end', type: 'end' },
];

/** A code node alone: the address comes from providedData or is typed at the node. */
const codeFlow = [
  { id: 'start', type: 'start', outcome: 'otp' },
  {
    id: 'otp',
    type: 'two_factor_email',
    resendAfterSeconds: 10,
    outcomes: { ...outcomes, verified: 'end' },
  },
  { id: 'end', type: 'end' },
];

const clock = manualClock(Date.UTC(2025, 9, 1, 9));
let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  smtp = await startSmtp();
  h = await startHarness({ clock, rateLimits: false, mailer: smtpMailer(smtp.url, 'idv@test') });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

async function open(body: Record<string, unknown>) {
  const made = await h.call('POST', '/sessions', { key: h.keys.live, body });
  expect(made.status).toBe(200);
  const ex = await h.call('POST', '/client/exchange', {
    key: null,
    body: { clientSecret: made.body.clientSecret.secret },
  });
  expect(ex.status).toBe(200);
  const token = ex.body.token as string;
  return {
    id: made.body.session.id as string,
    c: (method: string, path: string, b?: unknown) =>
      h.call(method, `/client${path}`, { key: token, ...(b !== undefined ? { body: b } : {}) }),
  };
}

/** The code in the last message delivered to `to`. */
async function codeSentTo(to: string): Promise<string> {
  const mail = await smtp.next();
  expect(mail.to).toContain(to);
  const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
  expect(code).toBeDefined();
  return code as string;
}

describe('changing the destination at the code step', () => {
  it('an address typed in enter_email can be corrected: the new code goes to the new one, and it is the one verified', async () => {
    const { id, c } = await open({ flow: enteredFlow });
    const entered = await c('POST', '/nodes/email/result', {
      outcome: 'emailEntered',
      report: { email: 'jnae@example.com' },
    });
    expect(entered.body.position.nodeId).toBe('otp');
    expect((await c('GET', '/nodes/otp/otp')).body).toEqual({ changeable: true, sent: null });
    expect((await c('POST', '/nodes/otp/otp/send', {})).body.sentTo).toBe('j•••@example.com');
    await codeSentTo('jnae@example.com');

    clock.advance(11_000);
    const changed = await c('POST', '/nodes/otp/otp/send', { destination: 'jane@example.org' });
    expect(changed.status).toBe(200);
    expect(changed.body.sentTo).toBe('j•••@example.org');
    const code = await codeSentTo('jane@example.org');
    const ok = await c('POST', '/nodes/otp/otp/verify', { code });
    expect(ok.body.verified).toBe(true);
    const done = (await h.call('GET', `/sessions/${id}`, { key: h.keys.live })).body.session;
    expect(done.report.extractedData).toEqual({ email: 'jane@example.org' });
    expect(done.report.isVerified).toBe(true);
  });

  it('the send caps still apply to a change: too soon after the last code, it is refused', async () => {
    const { c } = await open({ flow: codeFlow });
    expect((await c('POST', '/nodes/otp/otp/send', { destination: 'a@example.com' })).status).toBe(
      200,
    );
    await smtp.next();
    const early = await c('POST', '/nodes/otp/otp/send', { destination: 'b@example.com' });
    expect(early.status).toBe(400);
    expect(early.body.error.code).toBe('otp_resend_too_soon');
  });

  it("an address from providedData is the integrator's: it is not changeable and a typed one is ignored", async () => {
    const { c } = await open({ flow: codeFlow, providedData: { email: 'given@example.com' } });
    expect((await c('GET', '/nodes/otp/otp')).body.changeable).toBe(false);
    const sent = await c('POST', '/nodes/otp/otp/send', { destination: 'other@example.com' });
    expect(sent.body.sentTo).toBe('g•••@example.com');
    await codeSentTo('given@example.com');
  });
});

describe('the code step after a reload', () => {
  it('GET …/otp tells what was sent, when a new code may go and the attempts left', async () => {
    const { c } = await open({ flow: codeFlow });
    const sent = await c('POST', '/nodes/otp/otp/send', { destination: 'reload@example.com' });
    await smtp.next();
    const wrong = await c('POST', '/nodes/otp/otp/verify', { code: '12345' });
    expect(wrong.body.attemptsLeft).toBe(2);
    const state = await c('GET', '/nodes/otp/otp');
    expect(state.status).toBe(200);
    expect(state.body).toEqual({
      changeable: true,
      sent: {
        sentTo: 'r•••@example.com',
        expiresAt: sent.body.expiresAt,
        resendAfter: sent.body.resendAfter,
        attemptsLeft: 2,
      },
    });
  });

  it('a resend without a destination goes where the last code went (the page forgot what was typed)', async () => {
    const { c } = await open({ flow: codeFlow });
    await c('POST', '/nodes/otp/otp/send', { destination: 'typed@example.com' });
    await smtp.next();
    clock.advance(11_000);
    const again = await c('POST', '/nodes/otp/otp/send', {});
    expect(again.status).toBe(200);
    expect(again.body.sentTo).toBe('t•••@example.com');
    await codeSentTo('typed@example.com');
  });

  it('GET …/otp of a node that is not the current one is refused', async () => {
    const { c } = await open({ flow: enteredFlow });
    const r = await c('GET', '/nodes/otp/otp');
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('node_not_current');
  });
});
