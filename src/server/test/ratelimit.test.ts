import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../clock';
import { SlidingWindowLimiter } from '../http/rateLimit';
import { MINIMAL_FLOW, startHarness, type Harness } from './harness';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('rate limits', () => {
  it('refuses the 101st test request within a minute with 429, headers and Retry-After, then recovers', async () => {
    const clock = manualClock(Date.UTC(2025, 9, 1));
    h = await startHarness({ clock });
    for (let i = 1; i <= 100; i++) {
      const r = await h.call('GET', '/langs');
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit-limit')).toBe('100');
      expect(r.headers.get('ratelimit-remaining')).toBe(String(100 - i));
      if (i === 1) expect(r.headers.get('ratelimit-reset')).toBe('60');
      if (i % 10 === 0) clock.advance(1000);
    }
    const over = await h.call('GET', '/sessions');
    expect(over.status).toBe(429);
    expect(over.body.error.type).toBe('rate_limit_error');
    expect(over.body.error.message).toMatch(/retry after \d+ seconds/);
    expect(over.headers.get('retry-after')).toBe('50');
    expect(over.headers.get('ratelimit-remaining')).toBe('0');
    expect(over.headers.get('service-version')).toBe('2026-11-27');
    // The live key of the same account has its own, larger window.
    const live = await h.call('GET', '/langs', { key: h.keys.live });
    expect(live.status).toBe(200);
    expect(live.headers.get('ratelimit-limit')).toBe('1000');
    // Sliding: after the oldest ten leave the window, ten more fit, not a hundred.
    clock.advance(50_000);
    for (let i = 0; i < 10; i++) expect((await h.call('GET', '/langs')).status).toBe(200);
    expect((await h.call('GET', '/langs')).status).toBe(429);
  });

  it('does not count refused bad keys against any key, and limits a flood of them per IP', async () => {
    const clock = manualClock(Date.UTC(2025, 9, 1));
    h = await startHarness({ clock, rateLimits: { badKeyPerIp: 5 } });
    for (let i = 0; i < 5; i++) {
      const r = await h.call('GET', '/langs', { key: `sk_test_wrongwrongwrongwrong${i}` });
      expect(r.status).toBe(401);
    }
    const flood = await h.call('GET', '/langs', { key: 'sk_test_wrongwrongwrongwrongX' });
    expect(flood.status).toBe(429);
    expect(flood.headers.get('retry-after')).toBe('60');
    clock.advance(61_000);
    const good = await h.call('GET', '/langs');
    expect(good.status).toBe(200);
    expect(good.headers.get('ratelimit-remaining')).toBe('99');
  });

  it('never refuses a valid key for a flood of bad keys from the same address', async () => {
    // Behind a proxy without TRUST_PROXY every customer shares the proxy's address, as every
    // request of this test shares 127.0.0.1.
    const clock = manualClock(Date.UTC(2025, 9, 1));
    h = await startHarness({ clock, rateLimits: { badKeyPerIp: 5 } });
    for (let i = 0; i < 5; i++) {
      expect(
        (await h.call('GET', '/langs', { key: `sk_test_guessguessguessguess${i}` })).status,
      ).toBe(401);
    }
    const flooded = await h.call('GET', '/langs', { key: 'sk_test_guessguessguessguessX' });
    expect(flooded.status).toBe(429);
    expect((await h.call('GET', '/langs', { key: null })).status).toBe(429);

    // The valid keys pass, their own windows untouched by the flood.
    const good = await h.call('GET', '/langs');
    expect(good.status).toBe(200);
    expect(good.headers.get('ratelimit-remaining')).toBe('99');
    expect((await h.call('GET', '/sessions')).status).toBe(200);
    expect((await h.call('GET', '/langs', { key: h.keys.live })).status).toBe(200);

    // The guessing stays slowed: still 429, and the valid requests gave it no room.
    const after = await h.call('GET', '/langs', { key: 'sk_test_guessguessguessguessY' });
    expect(after.status).toBe(429);
    expect(after.body.error.type).toBe('rate_limit_error');
  });

  it('counts in the limiter it is given, which instances may share', async () => {
    const clock = manualClock(Date.UTC(2025, 9, 1));
    // Two instances with one shared count (PostgreSQL's pgRateLimiter in production).
    const shared = new SlidingWindowLimiter(60_000, () => clock.now());
    h = await startHarness({ clock, rateLimits: { badKeyPerIp: 5 }, rateLimiter: shared });
    const other = await startHarness({
      clock,
      rateLimits: { badKeyPerIp: 5 },
      rateLimiter: shared,
    });
    try {
      const bad = (app: Harness, i: number) =>
        app.call('GET', '/langs', { key: `sk_test_wrongwrongwrongwrong${i}` });
      for (let i = 0; i < 3; i++) expect((await bad(h, i)).status).toBe(401);
      for (let i = 3; i < 5; i++) expect((await bad(other, i)).status).toBe(401);
      expect((await bad(h, 5)).status).toBe(429);
      expect((await bad(other, 6)).status).toBe(429);
    } finally {
      await other.close();
    }
  });

  it('can be switched off for benchmarks', async () => {
    h = await startHarness({ rateLimits: false });
    for (let i = 0; i < 120; i++) expect((await h.call('GET', '/langs')).status).toBe(200);
  });
});

describe('bad client secrets and tokens from one address', () => {
  it('never hold back a valid secret or token sent from the same address', async () => {
    // The hosted page's users behind one carrier NAT share an address, as this test's requests do.
    const clock = manualClock(Date.UTC(2025, 9, 1));
    const harness = await startHarness({ clock, rateLimits: { badKeyPerIp: 3 } });
    h = harness;
    const create = async () =>
      (await harness.call('POST', '/sessions', { body: { flow: MINIMAL_FLOW } })).body.clientSecret
        .secret as string;
    const first = await create();
    const second = await create();
    const exchange = (clientSecret: string) =>
      harness.call('POST', '/client/exchange', { key: null, body: { clientSecret } });

    for (let i = 0; i < 3; i++) {
      expect((await exchange(`cs_unknown${i}`)).status).toBe(401);
    }
    const flooded = await exchange('cs_unknownX');
    expect(flooded.status).toBe(429);
    expect(flooded.headers.get('retry-after')).toBe('60');
    expect((await harness.call('GET', '/client/session', { key: 'ct_unknown' })).status).toBe(429);

    // A valid secret is exchanged, and its token works, while the address is over its limit.
    const opened = await exchange(first);
    expect(opened.status).toBe(200);
    const token = opened.body.token as string;
    expect((await harness.call('GET', '/client/session', { key: token })).status).toBe(200);
    expect((await exchange(second)).status).toBe(200);

    // Guessing stays slowed.
    expect((await exchange('cs_unknownY')).status).toBe(429);
  });
});
