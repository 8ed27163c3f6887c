import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStore, type SqliteSessionStore } from './sqlite';
import type { IdempotencyRecord } from './types';

let dir: string;
let a: SqliteSessionStore;
let b: SqliteSessionStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idv-idem-'));
  // Two connections to one file, as two server processes have.
  a = openSqliteStore({ path: join(dir, 'idv.sqlite'), backgroundCheckpoints: false });
  b = openSqliteStore({ path: join(dir, 'idv.sqlite'), backgroundCheckpoints: false });
});
afterEach(async () => {
  await a.close();
  await b.close();
  rmSync(dir, { recursive: true, force: true });
});

const scope = { accountId: 'acct_1', mode: 'test' as const };
const record = (over: Partial<IdempotencyRecord> = {}): IdempotencyRecord => ({
  ...scope,
  key: 'k1',
  requestHash: 'h1',
  sessionId: 'sess_1',
  status: 200,
  body: '{"session":{}}',
  createdAt: 1000,
  expiresAt: 2000,
  ...over,
});

describe('idempotency keys in SQLite', () => {
  it('stores the first put of a key; another connection gets that one back', async () => {
    expect(await a.putIdempotencyKey(record(), 1000)).toEqual({ stored: true });
    const second = await b.putIdempotencyKey(
      record({ sessionId: 'sess_2', requestHash: 'h2' }),
      1001,
    );
    expect(second).toEqual({ stored: false, existing: record() });
    expect(await b.findIdempotencyKey(scope, 'k1', 1001)).toEqual(record());
  });

  it('keeps keys apart per account and mode', async () => {
    await a.putIdempotencyKey(record(), 1000);
    expect(await a.putIdempotencyKey(record({ mode: 'live' }), 1000)).toEqual({ stored: true });
    expect(await a.putIdempotencyKey(record({ accountId: 'acct_2' }), 1000)).toEqual({
      stored: true,
    });
    expect(await a.findIdempotencyKey({ ...scope, mode: 'live' }, 'k1', 1000)).toMatchObject({
      mode: 'live',
    });
  });

  it('treats an expired record as absent, and replaces it', async () => {
    await a.putIdempotencyKey(record(), 1000);
    expect(await a.findIdempotencyKey(scope, 'k1', 1999)).not.toBeNull();
    expect(await a.findIdempotencyKey(scope, 'k1', 2000)).toBeNull();
    const fresh = record({ sessionId: 'sess_9', createdAt: 2000, expiresAt: 3000 });
    expect(await a.putIdempotencyKey(fresh, 2000)).toEqual({ stored: true });
    expect(await a.findIdempotencyKey(scope, 'k1', 2000)).toEqual(fresh);
  });

  it('drops a record only for the session it names', async () => {
    await a.putIdempotencyKey(record(), 1000);
    await a.dropIdempotencyKey(scope, 'k1', 'sess_other');
    expect(await a.findIdempotencyKey(scope, 'k1', 1000)).not.toBeNull();
    await a.dropIdempotencyKey(scope, 'k1', 'sess_1');
    expect(await a.findIdempotencyKey(scope, 'k1', 1000)).toBeNull();
  });

  it('purges expired records in batches', async () => {
    for (let i = 0; i < 5; i++) {
      await a.putIdempotencyKey(record({ key: `k${i}`, expiresAt: 1500 + i * 100 }), 1000);
    }
    expect(await a.purgeIdempotencyKeys(1700, 10)).toBe(3);
    expect(await a.purgeIdempotencyKeys(5000, 1)).toBe(1);
    expect(await a.purgeIdempotencyKeys(5000, 10)).toBe(1);
    expect(await a.purgeIdempotencyKeys(5000, 10)).toBe(0);
  });
});
