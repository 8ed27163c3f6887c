import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { secretRecord, sessionRecord } from './records';
import { openSqliteStore, type SqliteSessionStore } from './sqlite';

let dir: string;
let a: SqliteSessionStore;
let b: SqliteSessionStore;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'idv-handoffs-'));
  // Two connections to one file: two server processes, or the server and a CLI.
  a = openSqliteStore({ path: join(dir, 'db.sqlite'), backgroundCheckpoints: false });
  b = openSqliteStore({ path: join(dir, 'db.sqlite'), backgroundCheckpoints: false });
  const acct = await a.ensureAccount('acme', 1);
  const s = sessionRecord({ id: 'sess_h1', accountId: acct.id, mode: 'test', flowId: 'f' });
  await a.createSession(s, secretRecord(s.id, 'cs_h1', 1000));
  const opened = await a.exchangeClientSecret({
    secret: 'cs_h1',
    now: 1500,
    token: { hash: 'desktop', expiresAt: 99_000 },
    apply: (x) => ({ ...x, status: 'inProgress' }),
  });
  expect(opened.ok).toBe(true);
});
afterEach(async () => {
  await a.close();
  await b.close();
  rmSync(dir, { recursive: true, force: true });
});

const offer = { codeHash: 'code1', sessionId: 'sess_h1', createdAt: 2000, expiresAt: 3000 };
const claim = (store: SqliteSessionStore, token: string, now = 2500) =>
  store.claimHandoff({ codeHash: 'code1', now, token: { hash: token, expiresAt: 99_000 } });

describe('hand-off links in the store', () => {
  it('lets one of two connections claim a link, and marks the earlier tokens moved', async () => {
    expect(await a.offerHandoff(offer)).toBe('ok');
    const [first, second] = await Promise.all([claim(a, 'phone-a'), claim(b, 'phone-b')]);
    expect([first.ok, second.ok].sort()).toEqual([false, true]);
    expect([first, second].find((r) => !r.ok)).toEqual({ ok: false, reason: 'used' });
    expect((await b.findClientToken('desktop'))?.movedAt).toBe(2500);
    const winner = first.ok ? 'phone-a' : 'phone-b';
    const loser = first.ok ? 'phone-b' : 'phone-a';
    expect((await a.findClientToken(winner))?.movedAt).toBeNull();
    expect(await a.findClientToken(loser)).toBeNull();
    expect(await b.latestHandoff('sess_h1')).toMatchObject({ claimedAt: 2500 });
  });

  it('refuses an expired, a replaced and an unknown link', async () => {
    await a.offerHandoff(offer);
    expect(await claim(a, 't1', 3000)).toEqual({ ok: false, reason: 'expired' });
    await a.offerHandoff({ ...offer, codeHash: 'code2', createdAt: 2100, expiresAt: 4000 });
    expect(await claim(b, 't2', 2200)).toEqual({ ok: false, reason: 'expired' });
    expect(await b.latestHandoff('sess_h1')).toMatchObject({ codeHash: 'code2' });
    expect(
      await a.claimHandoff({ codeHash: 'nope', now: 2200, token: { hash: 't3', expiresAt: 1 } }),
    ).toEqual({ ok: false, reason: 'invalid' });
    expect((await a.findClientToken('desktop'))?.movedAt).toBeNull();
  });
});
