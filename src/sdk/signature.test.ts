import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeSignature,
  parseSignatureHeader,
  signWebhookPayload,
  verifyWebhookSignature,
} from './signature';

const T = 1_700_000_000_000;

describe('computeSignature', () => {
  it('matches an HMAC-SHA256 computed by openssl over "<t>.<body>"', () => {
    // printf '%s' '1700000000000.{"id":"evt_1"}' | openssl dgst -sha256 -hmac whsec_test
    expect(computeSignature('whsec_test', T, '{"id":"evt_1"}')).toBe(
      'f510dfdb0b01915750c36f3e15401a7895306243fa607a5cba4496ce6c3a0ea3',
    );
  });

  it('gives the same value for a string and its UTF-8 bytes', () => {
    const body = '{"name":"Zoë 東京"}';
    expect(computeSignature('k', T, body)).toBe(computeSignature('k', T, Buffer.from(body)));
  });
});

describe('signWebhookPayload / parseSignatureHeader', () => {
  it('writes one v1 part per secret after the timestamp', () => {
    const header = signWebhookPayload({ rawBody: '{}', secrets: ['a', 'b'], timestamp: T });
    expect(header).toBe(
      `t=${T},v1=${computeSignature('a', T, '{}')},v1=${computeSignature('b', T, '{}')}`,
    );
    expect(parseSignatureHeader(header)).toEqual({
      timestamp: T,
      signatures: [computeSignature('a', T, '{}'), computeSignature('b', T, '{}')],
    });
  });

  it('refuses to sign without a secret or with a bad timestamp', () => {
    expect(() => signWebhookPayload({ rawBody: '{}', secrets: [], timestamp: T })).toThrow();
    expect(() => signWebhookPayload({ rawBody: '{}', secrets: ['a'], timestamp: 1.5 })).toThrow();
  });

  it.each([
    ['', null],
    ['v1=abc', null],
    [`t=${T}`, null],
    [`t=abc,v1=00`, null],
    [`t=${T},t=${T},v1=00`, null],
    [`t=-5,v1=00`, null],
    [` t=${T} , v1=AB , v0=zz `, { timestamp: T, signatures: ['ab'] }],
  ])('parses %j as %j', (header, expected) => {
    expect(parseSignatureHeader(header)).toEqual(expected);
  });
});

describe('verifyWebhookSignature', () => {
  const body = '{"id":"evt_1","type":"session.status","createdAt":1,"sessionId":"s"}';
  const header = signWebhookPayload({ rawBody: body, secrets: ['s3cret'], timestamp: T });

  it('accepts the signed body', () => {
    expect(verifyWebhookSignature({ rawBody: body, header, secret: 's3cret', now: T })).toEqual({
      ok: true,
      timestamp: T,
    });
  });

  it.each([
    [{ header: undefined }, 'missing_header'],
    [{ header: '' }, 'missing_header'],
    [{ header: 'nonsense' }, 'malformed_header'],
    [{ secret: 'other' }, 'no_matching_signature'],
    [{ secret: '' }, 'no_secret'],
    [{ rawBody: body + ' ' }, 'no_matching_signature'],
    [{ now: T + 5 * 60_000 + 1 }, 'timestamp_out_of_tolerance'],
    [{ now: T - 5 * 60_000 - 1 }, 'timestamp_out_of_tolerance'],
    [{ now: T + 2_000, toleranceMs: 1_000 }, 'timestamp_out_of_tolerance'],
  ])('refuses %j with %s', (override, reason) => {
    const r = verifyWebhookSignature({
      rawBody: body,
      header,
      secret: 's3cret',
      now: T,
      ...override,
    });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toBe(reason);
  });

  it('accepts a timestamp exactly at the edge of the tolerance', () => {
    const now = T + 5 * 60_000;
    expect(verifyWebhookSignature({ rawBody: body, header, secret: 's3cret', now }).ok).toBe(true);
  });

  it('accepts a header with several v1 parts when any matches any secret', () => {
    const two = signWebhookPayload({ rawBody: body, secrets: ['new', 'old'], timestamp: T });
    for (const secret of ['new', 'old']) {
      expect(verifyWebhookSignature({ rawBody: body, header: two, secret, now: T }).ok).toBe(true);
    }
    expect(
      verifyWebhookSignature({ rawBody: body, header: two, secrets: ['x', 'old'], now: T }).ok,
    ).toBe(true);
    expect(verifyWebhookSignature({ rawBody: body, header: two, secret: 'x', now: T }).ok).toBe(
      false,
    );
  });

  it('takes a repeated header as Node hands it (an array)', () => {
    const [t, v1] = header.split(',');
    expect(
      verifyWebhookSignature({ rawBody: body, header: [t!, v1!], secret: 's3cret', now: T }).ok,
    ).toBe(true);
  });

  it('signatures verify, and fail after any single byte of the body changes (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 512 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (bytes, secret, t, at, delta) => {
          const raw = Buffer.from(bytes);
          const h = signWebhookPayload({ rawBody: raw, secrets: [secret], timestamp: t });
          expect(verifyWebhookSignature({ rawBody: raw, header: h, secret, now: t }).ok).toBe(true);
          const changed = Buffer.from(raw);
          const i = at % changed.length;
          changed[i] = (changed[i]! + delta) % 256; // delta in 1..255: always a different byte
          const r = verifyWebhookSignature({ rawBody: changed, header: h, secret, now: t });
          expect(r.ok).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a signature fails after any single character of the header signature changes (property)', () => {
    fc.assert(
      fc.property(fc.nat(63), fc.constantFrom(...'0123456789abcdef'), (at, ch) => {
        const sig = computeSignature('s3cret', T, body);
        fc.pre(sig[at] !== ch);
        const forged = `t=${T},v1=${sig.slice(0, at)}${ch}${sig.slice(at + 1)}`;
        const r = verifyWebhookSignature({
          rawBody: body,
          header: forged,
          secret: 's3cret',
          now: T,
        });
        expect(r.ok).toBe(false);
      }),
    );
  });
});
