import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../clock';
import { smtpMailer } from '../otp/mailer';
import type { Mailer } from '../otp/types';
import { startHarness, type Harness } from './harness';
import { startSmtp } from './smtp';

const outcomes = {
  verified: 'end',
  failed_unverified: 'failed',
  delivery_failed: 'failed',
  cancelled: 'failed',
};

/** Code nodes one after the other, each moving on when verified. */
function codeFlow(nodes: number, opts: Record<string, unknown> = {}) {
  const ids = Array.from({ length: nodes }, (_, i) => `otp${i + 1}`);
  return [
    { id: 'start', type: 'start', outcome: ids[0] },
    ...ids.map((id, i) => ({
      id,
      type: 'two_factor_email',
      otpLength: 6,
      maxAttempts: 3,
      resendAfterSeconds: 10,
      ...opts,
      outcomes: { ...outcomes, verified: ids[i + 1] ?? 'end' },
    })),
    { id: 'end', type: 'end' },
    { id: 'failed', type: 'end' },
  ];
}

/**
 * The real SMTP mailer behind a gate: while held, deliveries wait (as a slow mail server makes
 * them), so a test decides what happens while a send is under way.
 */
function gatedMailer(inner: Mailer) {
  let open: (() => void) | null = null;
  let gate: Promise<void> | null = null;
  let entered = 0;
  let onEntry: (() => void) | null = null;
  return {
    mailer: {
      async send(mail) {
        entered++;
        onEntry?.();
        if (gate) await gate;
        await inner.send(mail);
      },
    } satisfies Mailer,
    hold() {
      gate = new Promise<void>((ok) => (open = ok));
    },
    release() {
      open?.();
      gate = null;
    },
    /** Deliveries started so far. */
    get entered() {
      return entered;
    },
    /** Called each time a delivery starts. */
    watch(fn: (() => void) | null) {
      onEntry = fn;
    },
  };
}

const clock = manualClock(Date.UTC(2025, 9, 1, 9));
let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let gated: ReturnType<typeof gatedMailer>;

beforeAll(async () => {
  smtp = await startSmtp();
  gated = gatedMailer(smtpMailer(smtp.url, 'idv@test'));
  h = await startHarness({ clock, rateLimits: false, mailer: gated.mailer });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

async function open(body: Record<string, unknown>, key = h.keys.live) {
  const made = await h.call('POST', '/sessions', { key, body });
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

const delivered = (to: string) => smtp.inbox.filter((m) => m.to.includes(to)).length;

describe('one-time codes under concurrency', () => {
  it('wrong codes typed while a resend is delivered still count: maxAttempts in total end the node', async () => {
    const email = 'race@example.com';
    const { c } = await open({ flow: codeFlow(1), providedData: { email } });
    expect((await c('POST', '/nodes/otp1/otp/send', {})).status).toBe(200);
    await smtp.next();
    clock.advance(11_000);
    gated.hold();
    const entered = new Promise<void>((ok) => gated.watch(ok));
    const resend = c('POST', '/nodes/otp1/otp/send', {});
    await entered;
    // Five digits for a six-digit code: wrong by construction, whichever code is current.
    const wrong = { code: '12345' };
    expect((await c('POST', '/nodes/otp1/otp/verify', wrong)).body.attemptsLeft).toBe(2);
    expect((await c('POST', '/nodes/otp1/otp/verify', wrong)).body.attemptsLeft).toBe(1);
    gated.watch(null);
    gated.release();
    expect((await resend).status).toBe(200);
    await smtp.next();
    const third = await c('POST', '/nodes/otp1/otp/verify', wrong);
    expect(third.body).toMatchObject({ verified: false, attemptsLeft: 0 });
    expect(third.body.position.path.at(-1)).toMatchObject({
      nodeId: 'otp1',
      outcome: 'failed_unverified',
    });
  });

  it('20 sends at once deliver one message; the others are refused as too soon', async () => {
    const email = 'burst@example.com';
    const { c } = await open({ flow: codeFlow(1), providedData: { email } });
    gated.hold();
    // Deliveries wait until every request has either been answered or started delivering, so
    // read-then-write code would let them all through before any of them wrote.
    const before = gated.entered;
    let answered = 0;
    const releaseWhenAllIn = () => {
      if (answered + gated.entered - before >= 20) gated.release();
    };
    gated.watch(releaseWhenAllIn);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        c('POST', '/nodes/otp1/otp/send', {}).then((r) => {
          answered++;
          releaseWhenAllIn();
          return r;
        }),
      ),
    );
    gated.watch(null);
    gated.release();
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]?.body.sentTo).toBe('b•••@example.com');
    const refused = results.filter((r) => r.status !== 200);
    expect(refused.map((r) => r.body.error.code)).toEqual(
      Array.from({ length: 19 }, () => 'otp_resend_too_soon'),
    );
    expect(delivered(email)).toBe(1);
  });
});

describe('caps on sends', () => {
  it('five codes per node, then otp_send_limit', async () => {
    const email = 'five@example.com';
    const { c } = await open({ flow: codeFlow(1), providedData: { email } });
    for (let i = 0; i < 5; i++) {
      expect((await c('POST', '/nodes/otp1/otp/send', {})).status).toBe(200);
      clock.advance(11_000);
    }
    const sixth = await c('POST', '/nodes/otp1/otp/send', {});
    expect(sixth.status).toBe(400);
    expect(sixth.body.error).toMatchObject({
      type: 'validation_error',
      code: 'otp_send_limit',
      message: "node 'otp1' has sent its 5 codes; no more can be sent",
    });
    expect(delivered(email)).toBe(5);
  });

  it('ten codes per session across its nodes, then otp_send_limit', async () => {
    const { c } = await open(
      { flow: codeFlow(3), providedData: { email: 'ten@example.com' } },
      h.keys.test,
    );
    for (const node of ['otp1', 'otp2']) {
      for (let i = 0; i < 5; i++) {
        expect((await c('POST', `/nodes/${node}/otp/send`, {})).status).toBe(200);
        clock.advance(11_000);
      }
      const ok = await c('POST', `/nodes/${node}/otp/verify`, { code: '000000' });
      expect(ok.body.verified).toBe(true);
    }
    const eleventh = await c('POST', '/nodes/otp3/otp/send', {});
    expect(eleventh.status).toBe(400);
    expect(eleventh.body.error).toMatchObject({
      code: 'otp_send_limit',
      message: 'This session has sent its 10 codes; no more can be sent',
    });
  });

  it('three destinations typed on the page per session, then otp_destination_limit', async () => {
    const { c } = await open({ flow: codeFlow(1) }, h.keys.test);
    const send = (destination: string) => {
      clock.advance(11_000);
      return c('POST', '/nodes/otp1/otp/send', { destination });
    };
    for (const d of ['one@example.com', 'two@example.com', 'three@example.com']) {
      expect((await send(d)).status).toBe(200);
    }
    const fourth = await send('four@example.com');
    expect(fourth.status).toBe(400);
    expect(fourth.body.error.code).toBe('otp_destination_limit');
    // One already used stays open, within the node's five.
    expect((await send('two@example.com')).body.sentTo).toBe('t•••@example.com');
  });
});
