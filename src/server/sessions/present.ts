import type { ClientSecret } from '../../core/api';
import type { ClientSecretRecord, SessionRecord } from '../store/types';

/** The latest-version JSON of a session; versions are applied afterwards, at the edge. */
export interface SessionJson {
  id: string;
  createdAt: number;
  startedAt?: number;
  finishedAt?: number;
  status: SessionRecord['status'];
  livemode: boolean;
  flowId: string;
  version: string;
  settings: SessionRecord['settings'];
  report: SessionRecord['report'];
}

/**
 * A stored session as the API shows it.
 *
 * @example
 * presentSession(record).status; // 'created'
 */
export function presentSession(s: SessionRecord): SessionJson {
  return {
    id: s.id,
    createdAt: s.createdAt,
    ...(s.startedAt !== null ? { startedAt: s.startedAt } : {}),
    ...(s.finishedAt !== null ? { finishedAt: s.finishedAt } : {}),
    status: s.status,
    livemode: s.mode === 'live',
    flowId: s.flowId,
    version: s.version,
    settings: s.settings,
    report: s.report,
  };
}

/**
 * The hosted page's URL for a secret.
 *
 * @example
 * verifyUrl('http://localhost:3000', 'cs_x'); // 'http://localhost:3000/verify?client_secret=cs_x'
 */
export function verifyUrl(publicUrl: string, secret: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/verify?client_secret=${encodeURIComponent(secret)}`;
}

/**
 * A stored client secret as the API shows it.
 *
 * @example
 * presentSecret(secretRecord, 'http://localhost:3000').url;
 */
export function presentSecret(c: ClientSecretRecord, publicUrl: string): ClientSecret {
  return {
    secret: c.secret,
    createdAt: c.createdAt,
    expireAt: c.expireAt,
    url: verifyUrl(publicUrl, c.secret),
  };
}

/**
 * An image path of this service made absolute.
 *
 * @example
 * absoluteUrl('http://x.test', '/avatars/nova.svg'); // 'http://x.test/avatars/nova.svg'
 */
export function absoluteUrl(publicUrl: string, pathOrUrl: string): string {
  return pathOrUrl.startsWith('/') ? `${publicUrl.replace(/\/+$/, '')}${pathOrUrl}` : pathOrUrl;
}
