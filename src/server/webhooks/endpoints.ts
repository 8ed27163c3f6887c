/**
 * Registering, rotating and describing endpoints: the rules the `idv webhooks` commands apply.
 */
import { webhookUrlProblems, type AddressPolicy } from './address-policy';
import { parseEventTypes } from './event-types';
import { newSigningSecret, rotateSecrets, ROTATION_OVERLAP_MS } from './secrets';
import type { Promised } from '../store/promised';
import type { Mode, WebhookEndpoint, WebhookStore } from './store';

export type AddEndpointResult =
  { ok: true; endpoint: WebhookEndpoint; secret: string } | { ok: false; problems: string[] };

/**
 * Registers an endpoint after checking everything at once (URL, event types, mode) and returns
 * its first signing secret.
 *
 * @example
 * await registerEndpoint(promised(store), { accountId, mode: 'live', url: 'https://api.example.com/hooks',
 *   events: 'session.status', policy: 'local', now: Date.now() });
 */
export async function registerEndpoint(
  store: Promised<WebhookStore>,
  input: {
    accountId: string;
    mode: string;
    url: string;
    events?: string;
    policy: AddressPolicy;
    now: number;
  },
): Promise<AddEndpointResult> {
  const problems = webhookUrlProblems(input.url, input.policy);
  const types = parseEventTypes(input.events);
  problems.push(...types.problems);
  if (input.mode !== 'test' && input.mode !== 'live') {
    problems.push(`--mode must be test or live; got ${JSON.stringify(input.mode)}`);
  }
  if (problems.length > 0) return { ok: false, problems };
  const secret = newSigningSecret();
  const endpoint = await store.addEndpoint({
    accountId: input.accountId,
    mode: input.mode as Mode,
    url: new URL(input.url).toString(),
    eventTypes: types.types,
    secret,
    now: input.now,
  });
  return { ok: true, endpoint, secret };
}

/**
 * Gives an endpoint a new secret; the old one keeps signing beside it for 24 hours.
 *
 * @example
 * await rotateEndpointSecret(promised(store), 'we_…', Date.now()); // { endpoint, secret: 'whsec_…' } or null
 */
export async function rotateEndpointSecret(
  store: Promised<WebhookStore>,
  id: string,
  now: number,
  overlapMs: number = ROTATION_OVERLAP_MS,
): Promise<{ endpoint: WebhookEndpoint; secret: string } | null> {
  const current = await store.getEndpoint(id);
  if (!current) return null;
  const secret = newSigningSecret();
  const endpoint = await store.setSecrets(
    id,
    rotateSecrets(current.secrets, secret, now, overlapMs),
  );
  return endpoint ? { endpoint, secret } : null;
}

/**
 * A webhook URL fit to print: a password in it is masked.
 *
 * @example
 * displayUrl('https://user:pw@example.com/hook'); // 'https://user:***@example.com/hook'
 */
export function displayUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return raw;
  }
}
