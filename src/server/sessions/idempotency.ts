import { canonicalJson } from '../../core/api/canonical';
import type { Clock } from '../clock';
import { ApiError } from '../http/errors';
import { sha256Hex } from '../ids';
import type {
  IdempotencyRecord,
  IdempotencyStore,
  Scope,
  SessionRecordStore,
} from '../store/types';

/** How long a key holds its answer (Stripe's rule). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * How long a key whose session is not stored yet is taken as "being created" by another process.
 * After that, the create that wrote it is taken as dead (its process was killed between the key
 * and the session) and a retry creates the session.
 */
export const IDEMPOTENCY_SETTLE_MS = 30_000;

/** Longest key accepted, as Stripe's. */
export const IDEMPOTENCY_KEY_MAX = 255;

const KEY_FORMAT = /^[\x21-\x7e]+$/;

/** An answer as sent: its status and exact JSON body. */
export interface CreateAnswer {
  status: number;
  body: string;
}

/** A create checked and built, not stored yet: `commit` stores it. */
export interface PreparedCreate {
  sessionId: string;
  answer: CreateAnswer;
  commit(): Promise<void>;
}

export interface IdempotentCreates {
  /**
   * The answer for a create under `key`: the stored one when the key was used before with the
   * same request (`replayed`), else `prepare`'s, stored with the key before the session is. A
   * `prepare` that throws (a validation error) stores nothing.
   */
  run(
    scope: Scope,
    key: string,
    requestHash: string,
    prepare: () => Promise<PreparedCreate>,
  ): Promise<CreateAnswer & { replayed: boolean }>;
}

/**
 * The key of a request's `Idempotency-Key` header: null when there is none, a
 * `validation_error` when it is empty, repeated, too long or not printable ASCII.
 *
 * @example
 * idempotencyKeyOf({ 'idempotency-key': 'order-42' }); // 'order-42'
 * idempotencyKeyOf({}); // null
 */
export function idempotencyKeyOf(
  headers: Record<string, string | string[] | undefined>,
): string | null {
  const raw = headers['idempotency-key'];
  if (raw === undefined) return null;
  const problem = Array.isArray(raw)
    ? 'send one Idempotency-Key header, not several'
    : raw.length === 0 || raw.length > IDEMPOTENCY_KEY_MAX || !KEY_FORMAT.test(raw)
      ? `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters without spaces (a UUID, for example)`
      : null;
  if (problem) throw new ApiError('validation_error', problem, { code: 'idempotency_key_invalid' });
  return raw as string;
}

/**
 * What a retry must repeat to get the first answer: the API version and the body, compared by
 * content (key order and spacing do not matter).
 *
 * @example
 * requestHash('2025-09-01', { flow }) === requestHash('2025-09-01', JSON.parse(JSON.stringify({ flow }))); // true
 */
export function requestHash(version: string, body: unknown): string {
  return sha256Hex(`${version}\n${canonicalJson(body ?? null)}`);
}

const mismatch = () =>
  new ApiError(
    'validation_error',
    'This Idempotency-Key was used in the last 24 hours with another request (body or Service-Version); send a new key for a new request',
    { code: 'idempotency_key_mismatch' },
  );

const inUse = () =>
  new ApiError(
    'rate_limit_error',
    'Another request with this Idempotency-Key is still being processed; retry after a second',
    { code: 'idempotency_key_in_use', headers: { 'Retry-After': '1' } },
  );

/**
 * `POST /sessions` under an `Idempotency-Key`, as Stripe's API does it (docs/api.md, "Retrying a
 * create safely"). The key's record (with the answer) is written before the session, and taken
 * back if the session cannot be stored; a retry finds the record, and answers it only once its
 * session exists. Requests with one key in one process wait for each other; in another process
 * they get `idempotency_key_in_use` until the session is stored.
 *
 * @example
 * const creates = idempotentCreates(store, systemClock);
 * const a = await creates.run(scope, 'order-42', requestHash(v, body), prepare);
 * const b = await creates.run(scope, 'order-42', requestHash(v, body), prepare); // b.replayed: true
 */
export function idempotentCreates(
  store: IdempotencyStore & Pick<SessionRecordStore, 'getSession'>,
  clock: Clock,
  opts: { ttlMs?: number; settleMs?: number } = {},
): IdempotentCreates {
  const ttlMs = opts.ttlMs ?? IDEMPOTENCY_TTL_MS;
  const settleMs = opts.settleMs ?? IDEMPOTENCY_SETTLE_MS;
  const queues = new Map<string, Promise<unknown>>();

  /** The stored answer, an error, or `stale` when the create that wrote it died. */
  async function settle(
    scope: Scope,
    found: IdempotencyRecord,
    hash: string,
    now: number,
  ): Promise<(CreateAnswer & { replayed: true }) | 'stale'> {
    const stored = (await store.getSession(scope, found.sessionId)) !== null;
    if (stored || now - found.createdAt < settleMs) {
      if (found.requestHash !== hash) throw mismatch();
      if (!stored) throw inUse();
      return { status: found.status, body: found.body, replayed: true };
    }
    await store.dropIdempotencyKey(scope, found.key, found.sessionId);
    return 'stale';
  }

  async function attempt(
    scope: Scope,
    key: string,
    hash: string,
    prepare: () => Promise<PreparedCreate>,
  ): Promise<CreateAnswer & { replayed: boolean }> {
    // Two rounds at most: a stale record found in the first is gone in the second.
    for (let round = 0; ; round++) {
      const now = clock.now();
      const found = await store.findIdempotencyKey(scope, key, now);
      if (found) {
        const r = await settle(scope, found, hash, now);
        if (r !== 'stale') return r;
      }
      const prepared = await prepare();
      const put = await store.putIdempotencyKey(
        {
          ...scope,
          key,
          requestHash: hash,
          sessionId: prepared.sessionId,
          ...prepared.answer,
          createdAt: now,
          expiresAt: now + ttlMs,
        },
        now,
      );
      if (!put.stored) {
        // Another process put the key between our read and our write.
        const r = await settle(scope, put.existing, hash, now);
        if (r !== 'stale' || round > 0) {
          if (r === 'stale') throw inUse();
          return r;
        }
        continue;
      }
      try {
        await prepared.commit();
      } catch (err) {
        await store.dropIdempotencyKey(scope, key, prepared.sessionId);
        throw err;
      }
      return { ...prepared.answer, replayed: false };
    }
  }

  return {
    run(scope, key, hash, prepare) {
      const id = `${scope.accountId}\n${scope.mode}\n${key}`;
      const before = queues.get(id) ?? Promise.resolve();
      const mine = before.then(() => attempt(scope, key, hash, prepare));
      const tail = mine.catch(() => undefined);
      queues.set(id, tail);
      void tail.then(() => {
        if (queues.get(id) === tail) queues.delete(id);
      });
      return mine;
    },
  };
}
