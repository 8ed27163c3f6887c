import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CreateWriteError, createRows, startCreateWriter } from './createWriter';
import { secretRecord, sessionRecord } from './records';
import { openSqliteStore, type SqliteSessionStore } from './sqlite';
import type { ClientSecretRecord, SessionRecord } from './types';

let dir: string;
/** The account of the store opened last. */
let account = '';
const opened: SqliteSessionStore[] = [];
const open = async (name: string, createsOnThread: boolean) => {
  const store = openSqliteStore({ path: join(dir, name), createsOnThread });
  opened.push(store);
  account = (await store.ensureAccount('shop', 1)).id;
  return store;
};
function newSession(i: number, accountId = account): [SessionRecord, ClientSecretRecord] {
  const id = `sess_${String(i).padStart(4, '0')}`;
  const s = sessionRecord({
    id,
    accountId,
    createdAt: 1000 + i,
    flowId: 'flow_x',
    clientReferenceId: `ref "${i}" ünïcode`,
    settings: { metadata: { plan: 'gold', note: 'quotes " and \\ and \u0000' } },
  });
  return [s, secretRecord(id, `cs_${i}`, s.createdAt)];
}

/** Another connection: what any other reader of the file sees. */
const rowsIn = (name: string, sql: string) => {
  const db = new BetterSqlite3(join(dir, name), { readonly: true });
  try {
    return db.prepare(sql).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idv-writer-'));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('creates on the writer thread', () => {
  it('a create is committed when its promise settles, and reads back whole', async () => {
    const store = await open('a.sqlite', true);
    const [s, secret] = newSession(1);
    await store.createSession(s, secret);
    expect(rowsIn('a.sqlite', 'SELECT id FROM sessions')).toEqual([{ id: s.id }]);
    const [event] = rowsIn('a.sqlite', 'SELECT * FROM events');
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_/),
      account_id: account,
      mode: s.mode,
      type: 'session.status',
      session_id: s.id,
      created_at: s.createdAt,
      // The payload SQLite makes is the text JSON.stringify would make.
      payload: JSON.stringify({
        id: event?.['id'],
        type: 'session.status',
        createdAt: s.createdAt,
        sessionId: s.id,
      }),
    });
    const back = await store.getSessionById(s.id);
    expect(back).toEqual(s);
    expect((await store.getSessionBySecret('cs_1'))?.id).toBe(s.id);
  });

  it('writes the same rows as the store’s own thread', async () => {
    const threaded = await open('thread.sqlite', true);
    const threadedAccount = account;
    const inline = await open('inline.sqlite', false);
    for (let i = 0; i < 30; i++) {
      await Promise.all([
        threaded.createSession(...newSession(i, threadedAccount)),
        inline.createSession(...newSession(i)),
      ]);
    }
    // The two files' accounts have ids of their own.
    const rowsOf = (name: string, sql: string) =>
      rowsIn(name, sql).map((r) => ({ ...r, account_id: 'same' }));
    for (const sql of [
      'SELECT * FROM sessions ORDER BY id',
      'SELECT account_id, mode, type, session_id, created_at FROM events ORDER BY rowid',
      'SELECT * FROM flows',
    ]) {
      const a = rowsOf('thread.sqlite', sql);
      expect(a.length).toBeGreaterThan(0);
      expect(a).toEqual(rowsOf('inline.sqlite', sql));
    }
    // Event ids differ (each is new) but their payloads have the same shape.
    const [event] = rowsIn('thread.sqlite', 'SELECT id, payload FROM events LIMIT 1');
    expect(JSON.parse(String(event?.['payload']))).toEqual({
      id: event?.['id'],
      type: 'session.status',
      createdAt: 1000,
      sessionId: 'sess_0000',
    });
  });

  it('one bad create in a batch fails alone; the rest of the batch is stored', async () => {
    const store = await open('b.sqlite', true);
    const [first, firstSecret] = newSession(1);
    await store.createSession(first, firstSecret);
    // The same batch (same turn of the event loop): a duplicate id between two good ones.
    const [a, aSecret] = newSession(2);
    const [dup] = newSession(1);
    const [c, cSecret] = newSession(3);
    const results = await Promise.allSettled([
      store.createSession(a, aSecret),
      store.createSession(dup, { ...firstSecret, secret: 'cs_other' }),
      store.createSession(c, cSecret),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const reason = (results[1] as PromiseRejectedResult).reason as CreateWriteError;
    expect(reason).toBeInstanceOf(CreateWriteError);
    expect(reason.code).toBe('SQLITE_CONSTRAINT_PRIMARYKEY');
    expect(rowsIn('b.sqlite', 'SELECT id FROM sessions ORDER BY id')).toEqual([
      { id: 'sess_0001' },
      { id: 'sess_0002' },
      { id: 'sess_0003' },
    ]);
  });

  it('close waits for every create handed to it', async () => {
    const store = await open('c.sqlite', true);
    const pending = Array.from({ length: 200 }, (_, i) => store.createSession(...newSession(i)));
    await store.close();
    await Promise.all(pending);
    expect(rowsIn('c.sqlite', 'SELECT count(*) AS n FROM sessions')).toEqual([{ n: 200 }]);
  });
});

describe('startCreateWriter', () => {
  /** Holds the event loop, as a run of incoming requests does. */
  const busy = (ms: number) => {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      // spin
    }
  };

  it('collect() settles a committed batch while the event loop is still busy', async () => {
    await open('c.sqlite', false);
    const writer = startCreateWriter({ path: join(dir, 'c.sqlite'), pragmas: [] });
    try {
      const [s, secret] = newSession(1);
      let settled: (Error | null)[] | null = null;
      void writer.write([createRows(s, secret, { hash: 'h1', json: '[]' }, 'evt_1')]).then((r) => {
        settled = r;
      });
      // Only microtasks run in this loop: the thread's message cannot be read in it.
      const deadline = Date.now() + 10_000;
      while (settled === null && Date.now() < deadline) {
        busy(20);
        writer.collect();
        for (let i = 0; i < 5; i++) await Promise.resolve();
      }
      expect(settled).toEqual([null]);
      expect(rowsIn('c.sqlite', 'SELECT id FROM sessions')).toEqual([{ id: s.id }]);
    } finally {
      await writer.stop();
    }
  });
});
