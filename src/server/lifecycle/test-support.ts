/**
 * What the erasure tests on SQLite and on PostgreSQL share: the flow, a frame's bytes, API calls
 * and a session opened through the API with something to erase in every core table.
 */
import { expect } from 'vitest';

/** start → permissions → an email code → the end: a code to send, so codes to erase. */
const ERASE_FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  { id: 'perm', type: 'permissions', outcomes: { permissionsGranted: 'otp' } },
  { id: 'otp', type: 'two_factor_email', outcomes: { verified: 'end' } },
  { id: 'end', type: 'end' },
];

/** The smallest JPEG-looking bytes: media records only need bytes, never decoded here. */
export const TINY_JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);

/**
 * An API call with `key` to the server at `base`: status and parsed JSON.
 *
 * @example
 * const r = await apiCall(url, key, 'POST', `/sessions/${id}/erase`);
 */
export async function apiCall(
  base: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read field by field
  return { status: res.status, body: (text ? JSON.parse(text) : null) as any };
}

/**
 * A session created with an `Idempotency-Key`, a reference, metadata and provided data, and opened
 * (its secret exchanged for a client token): what an erasure must empty in the core's tables.
 *
 * @example
 * const { sessionId, secret, token } = await openedSession(url, key, 'user-1');
 */
export async function openedSession(
  base: string,
  key: string,
  reference: string,
): Promise<{ sessionId: string; secret: string; token: string }> {
  const created = await fetch(`${base}/sessions`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'idempotency-key': `create-${reference}`,
    },
    body: JSON.stringify({
      flow: ERASE_FLOW,
      clientReferenceId: reference,
      metadata: { plan: 'gold' },
      providedData: { email: 'ann@example.com', name: 'Ann Example' },
    }),
  });
  expect(created.status).toBe(200);
  const { session, clientSecret } = (await created.json()) as {
    session: { id: string };
    clientSecret: { secret: string };
  };
  const exchange = await fetch(`${base}/client/exchange`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientSecret: clientSecret.secret }),
  });
  expect(exchange.status).toBe(200);
  const { token } = (await exchange.json()) as { token: string };
  return { sessionId: session.id, secret: clientSecret.secret, token };
}
