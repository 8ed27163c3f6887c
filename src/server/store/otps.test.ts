import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CORE_MIGRATIONS } from './migrations';
import { secretRecord, sessionRecord } from './records';
import { openSqliteStore, type SqliteSessionStore } from './sqlite';
import type { OtpSendClaim } from './types';

let dir: string;
let store: SqliteSessionStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idv-otps-'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function withSession(id = 'sess_otp1') {
  const account = await store.ensureAccount('acme', 0);
  await store.createSession(sessionRecord({ id, accountId: account.id }), secretRecord(id));
  return id;
}

const limits = { perNode: 5, perSession: 10, destinationsPerSession: 3 };
const claim = (sessionId: string, sentAt: number, codeHash: string): OtpSendClaim => ({
  otp: {
    sessionId,
    nodeId: 'otp',
    channel: 'email',
    destination: 'a@example.com',
    codeHash,
    sentAt,
    expiresAt: sentAt + 300_000,
  },
  chosenByPage: false,
  resendAfterMs: 10_000,
  limits,
});

describe('the store’s one-time codes', () => {
  it('keeps wrong attempts across resends and compares no code once they are used up', async () => {
    store = openSqliteStore({ path: join(dir, 'db.sqlite') });
    const id = await withSession();
    expect(await store.claimOtpSend(claim(id, 1000, 'first'))).toEqual({ ok: true });
    const check = (code: string) =>
      store.checkOtp({
        sessionId: id,
        nodeId: 'otp',
        now: 20_000,
        maxAttempts: 3,
        matches: (hash) => hash === code,
      });
    expect(await check('nope')).toMatchObject({ status: 'checked', ok: false, attempts: 1 });
    expect(await store.claimOtpSend(claim(id, 5000, 'early'))).toEqual({
      ok: false,
      reason: 'too_soon',
      retryAt: 11_000,
    });
    expect(await store.claimOtpSend(claim(id, 11_000, 'second'))).toEqual({ ok: true });
    expect((await store.getOtp(id, 'otp'))?.attempts).toBe(1);
    expect(await check('first')).toMatchObject({ ok: false, attempts: 2 });
    expect(await check('nope')).toMatchObject({ ok: false, attempts: 3 });
    // A right guess that raced the limit is not compared: the limit holds.
    expect(await check('second')).toMatchObject({ status: 'checked', ok: false, attempts: 3 });
  });

  it('counts a code stored before core_0003 as one send', async () => {
    const path = join(dir, 'db.sqlite');
    store = openSqliteStore({
      path,
      migrations: CORE_MIGRATIONS.filter((m) => m.id.startsWith('core_') && m.id < 'core_0003'),
    });
    const id = await withSession();
    store.db
      .prepare(
        `INSERT INTO otps (session_id, node_id, channel, destination, code_hash, sent_at,
          expires_at, attempts) VALUES (?, 'otp', 'email', 'a@example.com', 'h', 0, 300000, 2)`,
      )
      .run(id);
    await store.close();
    store = openSqliteStore({ path });
    const tight = { ...claim(id, 60_000, 'next'), limits: { ...limits, perNode: 2 } };
    expect(await store.claimOtpSend(tight)).toEqual({ ok: true });
    expect(await store.claimOtpSend({ ...tight, otp: { ...tight.otp, sentAt: 90_000 } })).toEqual({
      ok: false,
      reason: 'node_limit',
      limit: 2,
    });
    expect((await store.getOtp(id, 'otp'))?.attempts).toBe(2);
  });
});
