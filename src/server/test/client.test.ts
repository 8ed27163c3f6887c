import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../clock';
import { smtpMailer } from '../otp/mailer';
import { MINIMAL_FLOW, startHarness, type Harness } from './harness';
import { startSmtp } from './smtp';

/** permissions → conversation (two branches) → enter_email → two_factor_email → data_validation → end */
const KYC_FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  {
    id: 'perm',
    type: 'permissions',
    outcomes: { permissionsGranted: 'ask', permissionsDenied: 'denied' },
  },
  {
    id: 'ask',
    type: 'conversation',
    prompt: 'Say: Are you ready to verify your email?',
    outcomes: [
      { id: 'no', condition: 'The user says no', targetNodeId: 'bye' },
      { id: 'yes', condition: 'The user agrees', targetNodeId: 'email' },
    ],
  },
  {
    id: 'email',
    type: 'enter_email',
    prompt: 'Please type your email',
    outcomes: { emailEntered: 'otp', canceled: 'denied' },
  },
  {
    id: 'otp',
    type: 'two_factor_email',
    otpLength: 6,
    resendAfterSeconds: 10,
    outcomes: {
      verified: 'check',
      failed_unverified: 'denied',
      delivery_failed: 'denied',
      cancelled: 'denied',
    },
  },
  {
    id: 'check',
    type: 'data_validation',
    validation: { field: 'extractedData.email', action: 'contains', value: '@example.com' },
    outcomes: [
      { id: 'good', condition: 'passed', targetNodeId: 'done' },
      { id: 'bad', condition: 'failed', targetNodeId: 'denied' },
    ],
  },
  {
    id: 'bye',
    type: 'conversation',
    prompt: 'Say: Goodbye',
    doesNotRequireReply: true,
    outcomes: [{ id: 'out', condition: '', targetNodeId: 'denied' }],
  },
  { id: 'done', type: 'end' },
  { id: 'denied', type: 'end' },
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

async function newSession(body: Record<string, unknown>, key = h.keys.live) {
  const r = await h.call('POST', '/sessions', { key, body });
  expect(r.status).toBe(200);
  return r.body as { session: { id: string }; clientSecret: { secret: string } };
}

const UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

async function exchange(secret: string) {
  return h.call('POST', '/client/exchange', {
    key: null,
    body: { clientSecret: secret },
    headers: { 'user-agent': UA },
  });
}

function client(token: string) {
  return (method: string, path: string, body?: unknown) =>
    h.call(method, `/client${path}`, { key: token, ...(body !== undefined ? { body } : {}) });
}

describe('client secrets', () => {
  it('exchanges once: a second try is client_secret_used, an unknown one client_secret_invalid', async () => {
    const { clientSecret } = await newSession({ flow: MINIMAL_FLOW });
    const first = await exchange(clientSecret.secret);
    expect(first.status).toBe(200);
    expect(first.body.token).toMatch(/^ct_/);
    const again = await exchange(clientSecret.secret);
    expect(again.status).toBe(401);
    expect(again.body.error).toMatchObject({
      type: 'authentication_error',
      code: 'client_secret_used',
    });
    const unknown = await exchange('cs_doesnotexist');
    expect(unknown.body.error.code).toBe('client_secret_invalid');
  });

  it('refuses a secret after its hour: client_secret_expired', async () => {
    const { clientSecret } = await newSession({ flow: MINIMAL_FLOW });
    clock.advance(60 * 60 * 1000);
    const r = await exchange(clientSecret.secret);
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('client_secret_expired');
  });

  it('a refresh kills every earlier secret, and the new one works', async () => {
    const { session, clientSecret } = await newSession({ flow: MINIMAL_FLOW });
    const r1 = await h.call('GET', `/sessions/${session.id}/refresh`, { key: h.keys.live });
    const r2 = await h.call('GET', `/sessions/${session.id}/refresh`, { key: h.keys.live });
    expect((await exchange(clientSecret.secret)).body.error.code).toBe('client_secret_expired');
    expect((await exchange(r1.body.secret)).body.error.code).toBe('client_secret_expired');
    const ok = await exchange(r2.body.secret);
    expect(ok.status).toBe(200);
    // A refresh after an exchange also ends the tokens handed out before it.
    const r3 = await h.call('GET', `/sessions/${session.id}/refresh`, { key: h.keys.live });
    expect(r3.status).toBe(200);
    const old = await client(ok.body.token)('GET', '/session');
    expect(old.status).toBe(401);
    expect(old.body.error.code).toBe('client_token_invalid');
    const resumed = await exchange(r3.body.secret);
    expect(resumed.status).toBe(200);
    expect(resumed.body.session.status).toBe('inProgress');
  });

  it('never lets a token open another session or read integrator data', async () => {
    const a = await newSession({
      flow: MINIMAL_FLOW,
      metadata: { secret: 'm' },
      clientReferenceId: 'hidden',
      providedData: { email: 'jane@example.com', phone: '+33612345678' },
    });
    const t = (await exchange(a.clientSecret.secret)).body.token as string;
    const view = await client(t)('GET', '/session');
    expect(view.body.session.id).toBe(a.session.id);
    const text = JSON.stringify(view.body);
    expect(text).not.toContain('hidden');
    expect(text).not.toContain('jane@example.com');
    expect(text).not.toContain('"secret"');
    expect(view.body.session.contact).toEqual({ email: 'j•••@example.com', phone: '+33•••••••78' });
    const none = await h.call('GET', '/client/session', { key: null });
    expect(none.body.error.code).toBe('client_token_missing');
    const apiKey = await h.call('GET', '/client/session', { key: h.keys.live });
    expect(apiKey.body.error.code).toBe('client_token_invalid');
    const withToken = await h.call('GET', `/sessions/${a.session.id}`, { key: t });
    expect(withToken.status).toBe(401);
  });
});

describe('a whole session through the client API', () => {
  it('runs permissions → conversation → email → code from SMTP → data_validation → end, complete and verified', async () => {
    const { session, clientSecret } = await newSession({
      flow: KYC_FLOW,
      avatarId: 'ava_atlas',
      langs: ['en', 'fr'],
      initialPhrase: 'Hi',
      embedOrigins: ['https://shop.example'],
    });
    const startedAt = clock.now();
    const ex = await exchange(clientSecret.secret);
    expect(ex.status).toBe(200);
    expect(ex.body.position).toEqual({
      nodeId: 'perm',
      nodeType: 'permissions',
      status: 'active',
      path: [],
    });
    expect(ex.body.session).toMatchObject({
      id: session.id,
      status: 'inProgress',
      testMode: false,
      settings: {
        avatar: {
          id: 'ava_atlas',
          name: 'Atlas',
          gender: 'male',
          imageUrl: 'http://idv.test/avatars/atlas.svg',
        },
        langs: ['en', 'fr'],
        defaultLang: 'en',
        lang: null,
        initialPhrase: 'Hi',
        embedOrigins: ['https://shop.example'],
      },
    });
    const c = client(ex.body.token);
    const stored = (await h.call('GET', `/sessions/${session.id}`, { key: h.keys.live })).body
      .session;
    expect(stored.status).toBe('inProgress');
    expect(stored.startedAt).toBe(startedAt);
    // express-useragent's reading, as the original product's SDK types it (compat.md §4.9).
    expect(stored.report.device).toMatchObject({
      browser: 'Safari',
      version: '17.4',
      platform: 'iPhone',
      isMobile: true,
      isiPhone: true,
      isDesktop: false,
      source: UA,
      geoIp: {},
    });
    expect(Object.keys(stored.report.device)).toHaveLength(47);
    expect(stored.report.location).toEqual({});
    // Version 2025-09-01 keeps its six members.
    const before = await h.call('GET', `/sessions/${session.id}`, {
      key: h.keys.live,
      headers: { 'service-version': '2025-09-01' },
    });
    expect(before.body.session.report.device).toEqual({
      browser: 'Safari',
      browserVersion: '17.4',
      os: 'OS X',
      osVersion: null,
      platform: 'mobile',
      isMobile: true,
    });

    expect((await c('POST', '/lang', { lang: 'de' })).status).toBe(400);
    expect((await c('POST', '/lang', { lang: 'fr' })).body).toEqual({ lang: 'fr' });

    // no skipping, no outcome a node cannot have, no server-decided outcome from the page
    const skip = await c('POST', '/nodes/email/result', {
      outcome: 'emailEntered',
      report: { email: 'x@example.com' },
    });
    expect(skip.body.error.code).toBe('node_not_current');
    const unknown = await c('POST', '/nodes/perm/result', { outcome: 'verified' });
    expect(unknown.body.error.code).toBe('outcome_unknown');

    clock.advance(1000);
    const granted = await c('POST', '/nodes/perm/result', {
      outcome: 'permissionsGranted',
      report: { camera: true },
    });
    expect(granted.body.position.nodeId).toBe('ask');

    const prompt = await c('GET', '/nodes/ask/prompt');
    expect(prompt.body).toEqual({ text: 'Are you ready to verify your email?' });
    const reply = await c('POST', '/nodes/ask/reply', { text: 'Oui, bien sûr' });
    expect(reply.body.outcome).toBe('yes');
    expect(reply.body.position.nodeId).toBe('email');

    const forged = await c('POST', '/nodes/email/result', {
      outcome: 'emailEntered',
      report: { email: 'not-an-email' },
    });
    expect(forged.status).toBe(400);
    const entered = await c('POST', '/nodes/email/result', {
      outcome: 'emailEntered',
      report: { email: 'jane@example.com' },
    });
    expect(entered.body.position.nodeId).toBe('otp');

    const claim = await c('POST', '/nodes/otp/result', { outcome: 'verified' });
    expect(claim.body.error.code).toBe('outcome_not_allowed');
    expect((await c('POST', '/nodes/otp/otp/verify', { code: '123456' })).body.error.code).toBe(
      'otp_not_sent',
    );
    const sent = await c('POST', '/nodes/otp/otp/send', {});
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({
      sentTo: 'j•••@example.com',
      expiresAt: clock.now() + 300_000,
      resendAfter: clock.now() + 10_000,
    });
    const mail = await smtp.next();
    expect(mail.to).toEqual(['jane@example.com']);
    expect(mail.subject).toBe('Votre code de vérification');
    const code = /(\d{6})/.exec(mail.text)?.[1] as string;
    expect(code).toMatch(/^\d{6}$/);
    expect((await c('POST', '/nodes/otp/otp/send', {})).body.error.code).toBe(
      'otp_resend_too_soon',
    );
    const wrong = await c('POST', '/nodes/otp/otp/verify', {
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.body).toMatchObject({ verified: false, attemptsLeft: 2 });
    expect(wrong.body.position.nodeId).toBe('otp');
    clock.advance(2000);
    const right = await c('POST', '/nodes/otp/otp/verify', { code });
    expect(right.body.verified).toBe(true);
    expect(right.body.position).toMatchObject({ nodeId: null, status: 'complete' });

    const after = await c('POST', '/nodes/otp/otp/verify', { code });
    expect(after.body.error.code).toBe('session_finished');
    const done = (await h.call('GET', `/sessions/${session.id}`, { key: h.keys.live })).body
      .session;
    expect(done.status).toBe('complete');
    expect(done.finishedAt).toBe(clock.now());
    expect(done.report.isVerified).toBe(true);
    expect(done.report.lang).toBe('fr');
    expect(done.report.extractedData).toEqual({ email: 'jane@example.com' });
    expect(
      done.report.nodeReports.map(
        (r: { nodeId: string; outcome: string }) => `${r.nodeId}:${r.outcome}`,
      ),
    ).toEqual([
      'perm:permissionsGranted',
      'ask:yes',
      'email:emailEntered',
      'otp:verified',
      'check:good',
    ]);
    for (const r of done.report.nodeReports) expect(typeof r.createdAt).toBe('number');
    expect(done.report.nodeReports[3].report).toMatchObject({
      channel: 'email',
      sentTo: 'j•••@example.com',
      attempts: 2,
    });
    expect(
      done.report.transcript.map((t: { text: string; isAvatar: boolean }) => [t.isAvatar, t.text]),
    ).toEqual([
      [true, 'Are you ready to verify your email?'],
      [false, 'Oui, bien sûr'],
    ]);
    const events = await h.store.listEvents({ sessionId: session.id });
    expect(events.map((e) => e.type)).toEqual([
      'session.status',
      'session.status',
      'session.status',
    ]);
    expect(
      (await h.call('GET', `/sessions/${session.id}/refresh`, { key: h.keys.live })).body.error
        .code,
    ).toBe('session_finished');
  });

  it('three wrong codes end on failed_unverified, and the other branch of the conversation', async () => {
    const { session, clientSecret } = await newSession({
      flow: KYC_FLOW,
      providedData: { email: 'bob@example.org' },
    });
    const c = client((await exchange(clientSecret.secret)).body.token);
    await c('POST', '/nodes/perm/result', { outcome: 'permissionsGranted' });
    await c('POST', '/nodes/ask/reply', { text: 'yes' });
    await c('POST', '/nodes/email/result', {
      outcome: 'emailEntered',
      report: { email: 'bob@example.org' },
    });
    expect((await c('POST', '/nodes/otp/otp/send')).status).toBe(200);
    const mail = await smtp.next();
    const code = /(\d{6})/.exec(mail.text)?.[1] as string;
    const bad = code === '999999' ? '999998' : '999999';
    expect((await c('POST', '/nodes/otp/otp/verify', { code: bad })).body.attemptsLeft).toBe(2);
    expect((await c('POST', '/nodes/otp/otp/verify', { code: bad })).body.attemptsLeft).toBe(1);
    const third = await c('POST', '/nodes/otp/otp/verify', { code: bad });
    expect(third.body).toMatchObject({ verified: false, attemptsLeft: 0 });
    expect(third.body.position.status).toBe('complete');
    const s = (await h.call('GET', `/sessions/${session.id}`, { key: h.keys.live })).body.session;
    expect(s.report.nodeReports.at(-1).outcome).toBe('failed_unverified');
    expect(s.report.isVerified).toBe(false);

    const other = await newSession({ flow: KYC_FLOW });
    const c2 = client((await exchange(other.clientSecret.secret)).body.token);
    await c2('POST', '/nodes/perm/result', { outcome: 'permissionsGranted' });
    const no = await c2('POST', '/nodes/ask/reply', { text: 'Nein, danke' });
    expect(no.body.outcome).toBe('no');
    expect(no.body.position.nodeId).toBe('bye');
    const out = await c2('POST', '/nodes/bye/reply', {});
    expect(out.body.outcome).toBe('out');
    expect(out.body.position.status).toBe('complete');
  });

  it('an expired code is refused with otp_expired, and a new one can be sent', async () => {
    const { clientSecret } = await newSession({
      flow: KYC_FLOW,
      providedData: { email: 'late@example.com' },
    });
    const c = client((await exchange(clientSecret.secret)).body.token);
    await c('POST', '/nodes/perm/result', { outcome: 'permissionsGranted' });
    await c('POST', '/nodes/ask/reply', { text: 'yes' });
    await c('POST', '/nodes/email/result', {
      outcome: 'emailEntered',
      report: { email: 'late@example.com' },
    });
    expect((await c('POST', '/nodes/otp/otp/send', {})).status).toBe(200);
    const first = /(\d{6})/.exec((await smtp.next()).text)?.[1] as string;
    clock.advance(301_000);
    const late = await c('POST', '/nodes/otp/otp/verify', { code: first });
    expect(late.body.error.code).toBe('otp_expired');
    expect((await c('POST', '/nodes/otp/otp/send', {})).status).toBe(200);
    const second = /(\d{6})/.exec((await smtp.next()).text)?.[1] as string;
    expect((await c('POST', '/nodes/otp/otp/verify', { code: second })).body.verified).toBe(true);
  });

  it('a code with no address known: otp_destination_required, then a bad and a good destination', async () => {
    const { clientSecret } = await newSession({
      flow: [
        { id: 'start', type: 'start', outcome: 'otp' },
        {
          id: 'otp',
          type: 'two_factor_email',
          outcomes: {
            verified: 'end',
            failed_unverified: 'end',
            delivery_failed: 'end',
            cancelled: 'end',
          },
        },
        { id: 'end', type: 'end' },
      ],
    });
    const c = client((await exchange(clientSecret.secret)).body.token);
    const missing = await c('POST', '/nodes/otp/otp/send', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('otp_destination_required');
    const bad = await c('POST', '/nodes/otp/otp/send', { destination: 'not an address' });
    expect(bad.body.error.code).toBe('otp_destination_invalid');
    const good = await c('POST', '/nodes/otp/otp/send', { destination: 'sam@example.com' });
    expect(good.status).toBe(200);
    expect((await smtp.next()).to).toEqual(['sam@example.com']);
  });

  it('a failed delivery ends the node on delivery_failed', async () => {
    const broken = await startHarness({
      clock,
      rateLimits: false,
      mailer: smtpMailer('smtp://127.0.0.1:1', 'x@y'),
    });
    try {
      const r = await broken.call('POST', '/sessions', {
        key: broken.keys.live,
        body: { flow: KYC_FLOW, providedData: { email: 'a@example.com' } },
      });
      const ex = await broken.call('POST', '/client/exchange', {
        key: null,
        body: { clientSecret: r.body.clientSecret.secret },
      });
      const call = (m: string, p: string, b?: unknown) =>
        broken.call(m, `/client${p}`, { key: ex.body.token, ...(b ? { body: b } : {}) });
      await call('POST', '/nodes/perm/result', { outcome: 'permissionsGranted' });
      await call('POST', '/nodes/ask/reply', { text: 'yes' });
      await call('POST', '/nodes/email/result', {
        outcome: 'emailEntered',
        report: { email: 'a@example.com' },
      });
      const sent = await call('POST', '/nodes/otp/otp/send', {});
      expect(sent.status).toBe(200);
      expect(sent.body.position.path.at(-1)).toMatchObject({
        nodeId: 'otp',
        outcome: 'delivery_failed',
      });
    } finally {
      await broken.close();
    }
  });

  it('test mode: any outcome of the node, codes 000000, nothing delivered', async () => {
    const before = smtp.inbox.length;
    const { clientSecret } = await newSession({ flow: KYC_FLOW }, h.keys.test);
    const ex = await exchange(clientSecret.secret);
    expect(ex.body.session.testMode).toBe(true);
    const c = client(ex.body.token);
    await c('POST', '/nodes/perm/result', { outcome: 'permissionsGranted' });
    expect((await c('POST', '/nodes/ask/result', { outcome: 'yes' })).body.position.nodeId).toBe(
      'email',
    );
    await c('POST', '/nodes/email/result', {
      outcome: 'emailEntered',
      report: { email: 'tester@example.com' },
    });
    const sent = await c('POST', '/nodes/otp/otp/send', {});
    expect(sent.body.sentTo).toBe('t•••@example.com');
    const ok = await c('POST', '/nodes/otp/otp/verify', { code: '000000' });
    expect(ok.body.verified).toBe(true);
    expect(smtp.inbox.length).toBe(before);
  });

  it('an outcome with no target ends incomplete, with the outcome in the node report', async () => {
    const flow = [
      { id: 'start', type: 'start', outcome: 'perm' },
      { id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'end' } },
      { id: 'end', type: 'end' },
    ];
    const { session, clientSecret } = await newSession({ flow });
    const c = client((await exchange(clientSecret.secret)).body.token);
    const r = await c('POST', '/nodes/perm/result', { outcome: 'permissionsDenied' });
    expect(r.body.position).toMatchObject({ status: 'incomplete', nodeId: null });
    const s = (await h.call('GET', `/sessions/${session.id}`, { key: h.keys.live })).body.session;
    expect(s.status).toBe('incomplete');
    expect(s.report.nodeReports[0].outcome).toBe('permissionsDenied');
    expect(s.report.isVerified).toBe(false);
  });

  it('a matches check on a crafted address answers at once (RE2), and routes by its result', async () => {
    // JavaScript's RegExp spends about 24 s on this pattern and this 57-character address.
    const email = String.raw`^([a-zA-Z0-9_\.\-])+\@(([a-zA-Z0-9\-])+\.)+([a-zA-Z0-9]{2,4})+$`;
    const flow = [
      { id: 'start', type: 'start', outcome: 'check' },
      {
        id: 'check',
        type: 'data_validation',
        validation: { field: 'providedData.email', action: 'matches', value: email },
        outcomes: [
          { id: 'good', condition: 'passed', targetNodeId: 'done' },
          { id: 'bad', condition: 'failed', targetNodeId: 'denied' },
        ],
      },
      { id: 'done', type: 'end' },
      { id: 'denied', type: 'end' },
    ];
    const endOf = async (address: string) => {
      const made = await newSession({ flow, providedData: { email: address } });
      const opened = await exchange(made.clientSecret.secret);
      expect(opened.status).toBe(200);
      return opened.body.position.path.map((p: { nodeId: string; outcome: string }) => [
        p.nodeId,
        p.outcome,
      ]);
    };
    expect(await endOf(`a@a.${'a'.repeat(52)}!`)).toEqual([['check', 'bad']]);
    expect(await endOf('jane.doe@mail.example.com')).toEqual([['check', 'good']]);
  });

  it('exit ends the session incomplete at once', async () => {
    const { session, clientSecret } = await newSession({ flow: KYC_FLOW });
    const c = client((await exchange(clientSecret.secret)).body.token);
    const r = await c('POST', '/exit');
    expect(r.body.position.status).toBe('incomplete');
    const s = (await h.call('GET', `/sessions/${session.id}`, { key: h.keys.live })).body.session;
    expect(s.status).toBe('incomplete');
    expect(s.finishedAt).toBe(clock.now());
    expect(
      (await c('POST', '/nodes/perm/result', { outcome: 'permissionsGranted' })).body.error.code,
    ).toBe('session_finished');
  });
});

describe('timeouts', () => {
  it('ends unopened sessions after 24 h and idle ones after 30 min, each with its event', async () => {
    const unopened = await newSession({ flow: KYC_FLOW });
    const idle = await newSession({ flow: KYC_FLOW });
    const busy = await newSession({ flow: KYC_FLOW });
    const tIdle = (await exchange(idle.clientSecret.secret)).body.token;
    const tBusy = (await exchange(busy.clientSecret.secret)).body.token;
    clock.advance(29 * 60 * 1000);
    await client(tBusy)('POST', '/nodes/perm/result', { outcome: 'permissionsGranted' });
    clock.advance(2 * 60 * 1000);
    await h.app.sweeper.runOnce();
    const get = async (id: string) =>
      (await h.call('GET', `/sessions/${id}`, { key: h.keys.live })).body.session;
    expect((await get(idle.session.id)).status).toBe('incomplete');
    expect((await get(busy.session.id)).status).toBe('inProgress');
    expect((await get(unopened.session.id)).status).toBe('created');
    expect(
      (await client(tIdle)('POST', '/nodes/perm/result', { outcome: 'permissionsGranted' })).body
        .error.code,
    ).toBe('session_finished');
    clock.advance(24 * 60 * 60 * 1000);
    await h.app.sweeper.runOnce();
    const u = await get(unopened.session.id);
    expect(u.status).toBe('incomplete');
    expect(u.finishedAt).toBe(clock.now());
    expect((await get(busy.session.id)).status).toBe('incomplete');
    const events = await h.store.listEvents({ sessionId: unopened.session.id });
    expect(events).toHaveLength(2);
  });

  it('an idle session touched after 30 min ends on that request even before the sweeper runs', async () => {
    const s = await newSession({ flow: KYC_FLOW });
    const t = (await exchange(s.clientSecret.secret)).body.token;
    clock.advance(31 * 60 * 1000);
    const r = await client(t)('POST', '/nodes/perm/result', { outcome: 'permissionsGranted' });
    expect(r.body.error.code).toBe('session_finished');
  });
});

describe('location', () => {
  it('records GeoIP of the first opening from the shipped database', async () => {
    const { geoLookup } = await import('../client/geo');
    const g = await startHarness({ rateLimits: false, trustProxy: true, geo: geoLookup() });
    try {
      const r = await g.call('POST', '/sessions', {
        key: g.keys.test,
        body: { flow: MINIMAL_FLOW },
      });
      const ex = await g.call('POST', '/client/exchange', {
        key: null,
        body: { clientSecret: r.body.clientSecret.secret },
        headers: { 'x-forwarded-for': '81.2.69.142' },
      });
      expect(ex.status).toBe(200);
      const s = (await g.call('GET', `/sessions/${r.body.session.id}`, { key: g.keys.test })).body
        .session;
      // GeoIP2 City records (compat.md §4.10).
      expect(s.report.location).toMatchObject({
        city: { names: { en: 'Bracknell' } },
        country: { isoCode: 'GB', names: { en: 'United Kingdom' } },
        location: { timeZone: 'Europe/London' },
      });
      expect(typeof s.report.location.location.latitude).toBe('number');
      const before = await g.call('GET', `/sessions/${r.body.session.id}`, {
        key: g.keys.test,
        headers: { 'service-version': '2025-09-01' },
      });
      expect(before.body.session.report.location).toMatchObject({
        city: 'Bracknell',
        country: 'GB',
        timezone: 'Europe/London',
      });
      expect(typeof before.body.session.report.location.latitude).toBe('number');
    } finally {
      await g.close();
    }
  });
});

describe("the page's view of the session", () => {
  it('tells the page whether the session takes video frames (videoAIAnalysisEnabled)', async () => {
    for (const enabled of [true, false, undefined]) {
      const body = enabled === undefined ? {} : { videoAIAnalysisEnabled: enabled };
      const { clientSecret } = await newSession({ flow: KYC_FLOW, ...body });
      const ex = await exchange(clientSecret.secret);
      expect(ex.body.session.settings.videoAIAnalysisEnabled, String(enabled)).toBe(
        enabled === true,
      );
      const again = await client(ex.body.token)('GET', '/session');
      expect(again.body.session.settings.videoAIAnalysisEnabled, String(enabled)).toBe(
        enabled === true,
      );
    }
  });
});
