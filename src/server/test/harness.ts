import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../app';
import type { AppDeps } from '../deps';
import { createApiKey } from '../keys';
import { openSqliteStore, type SqliteSessionStore } from '../store/sqlite';

export interface Harness {
  app: FastifyInstance;
  store: SqliteSessionStore;
  url: string;
  dir: string;
  /** `sk_test_` and `sk_live_` keys of account "acme", and a test key of account "other". */
  keys: { test: string; live: string; otherTest: string };
  /** fetch against the server with JSON in and out. */
  call(
    method: string,
    path: string,
    opts?: { key?: string | null; body?: unknown; headers?: Record<string, string>; raw?: string },
    // Responses are read field by field in the tests; a precise type per route would only repeat them.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ): Promise<{ status: number; headers: Headers; body: any }>;
  close(): Promise<void>;
}

/** The simplest valid flow. */
export const MINIMAL_FLOW = [
  { id: 'start', type: 'start', outcome: 'perm' },
  {
    id: 'perm',
    type: 'permissions',
    outcomes: { permissionsGranted: 'end', permissionsDenied: 'fail' },
  },
  { id: 'end', type: 'end' },
  { id: 'fail', type: 'end' },
];

/**
 * A real server on 127.0.0.1 over a fresh SQLite file in a temporary folder.
 *
 * @example
 * const h = await startHarness();
 * const r = await h.call('GET', '/langs', { key: h.keys.test });
 */
export async function startHarness(deps: Partial<AppDeps> = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'idv-test-'));
  const store = openSqliteStore({ path: join(dir, 'idv.sqlite') });
  const now = Date.now();
  const test = (await createApiKey(store, { accountName: 'acme', mode: 'test', now })).key;
  const live = (await createApiKey(store, { accountName: 'acme', mode: 'live', now })).key;
  const otherTest = (await createApiKey(store, { accountName: 'other', mode: 'test', now })).key;
  let url = 'http://127.0.0.1';
  const app = await createApp({
    store,
    db: store.db,
    publicUrl: 'http://idv.test',
    geo: async () => ({}),
    ...deps,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  if (addr && typeof addr === 'object') url = `http://127.0.0.1:${addr.port}`;
  return {
    app,
    store,
    url,
    dir,
    keys: { test, live, otherTest },
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = { ...(opts.headers ?? {}) };
      const key = opts.key === undefined ? test : opts.key;
      if (key) headers['authorization'] ??= `Bearer ${key}`;
      let body: string | undefined;
      if (opts.raw !== undefined) body = opts.raw;
      else if (opts.body !== undefined) {
        body = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(`${url}${path}`, { method, headers, body });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, headers: res.headers, body: parsed };
    },
    async close() {
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
