/**
 * Real parts for the webhook tests and benchmark: a store on a temporary SQLite file and HTTP
 * receivers on 127.0.0.1 that record every request they get.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { newId } from '../ids';
import { CORE_MIGRATIONS } from '../store/migrations';
import { openSqliteStore, type SqliteSessionStore } from '../store/sqlite';
import type { Mode } from '../store/types';
import { WEBHOOK_MIGRATIONS } from './sqlite-store';

export interface TempStore {
  store: SqliteSessionStore;
  db: Database;
  dir: string;
  path: string;
  /** Writes an outbox event as the store does for a status change; returns its id. */
  event(input?: { accountId?: string; mode?: Mode; type?: string; createdAt?: number }): string;
  close(): Promise<void>;
}

/**
 * Opens the real store (core and webhook migrations) on a new temporary file.
 *
 * @example
 * const t = openTempStore(); t.event({ accountId: 'acct_1' }); await t.close();
 */
export function openTempStore(): TempStore {
  const dir = mkdtempSync(join(tmpdir(), 'idv-webhooks-'));
  const path = join(dir, 'idv.sqlite');
  const store = openSqliteStore({ path, migrations: [...CORE_MIGRATIONS, ...WEBHOOK_MIGRATIONS] });
  const db = store.db;
  // The same row the store writes for a status change, kept synchronous for the tests' sake.
  const insert = db.prepare(`INSERT INTO events (id, account_id, mode, type, session_id, created_at,
    payload) VALUES (@id, @accountId, @mode, @type, @sessionId, @createdAt, @payload)`);
  return {
    store,
    db,
    dir,
    path,
    event(input = {}) {
      const id = newId('evt', 16);
      const type = input.type ?? 'session.status';
      const createdAt = input.createdAt ?? Date.now();
      const sessionId = newId('sess');
      insert.run({
        id,
        accountId: input.accountId ?? 'acct_a',
        mode: input.mode ?? 'test',
        type,
        sessionId,
        createdAt,
        payload: JSON.stringify({ id, type, createdAt, sessionId }),
      });
      return id;
    },
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ReceivedRequest {
  /** Date.now() when the request's body had arrived. */
  at: number;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Resolves once `n` requests have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A receiver on 127.0.0.1. `respond` decides the answer; returning 'hang' never answers.
 *
 * @example
 * const r = await startReceiver(() => 500); // every request answered 500
 */
export async function startReceiver(
  respond: (req: ReceivedRequest, res: ServerResponse) => number | 'hang' | 'handled' = () => 200,
): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const got: ReceivedRequest = {
      at: Date.now(),
      path: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks),
    };
    requests.push(got);
    for (const w of [...waiters]) {
      if (requests.length >= w.n) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
    const answer = respond(got, res);
    if (answer === 'hang' || answer === 'handled') return;
    res.statusCode = answer;
    if (answer >= 300 && answer < 400) res.setHeader('Location', '/elsewhere');
    res.end('{}');
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    requests,
    waitFor(n, timeoutMs = 10_000) {
      if (requests.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const t = setTimeout(
          () => reject(new Error(`receiver got ${requests.length} of ${n} requests`)),
          timeoutMs,
        );
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(t);
            resolve();
          },
        });
      });
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * A port on 127.0.0.1 that nothing listens on (bound, then released).
 *
 * @example
 * const port = await closedPort(); // connecting to it is refused
 */
export async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
