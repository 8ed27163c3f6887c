/**
 * The store alone, SQLite against PostgreSQL, on this machine: session creates, reads (a session
 * with its secret, as an integrator's poll reads it) and optimistic updates per second, each with
 * 32 in flight; and on PostgreSQL, the time from a session's create in one instance to its
 * webhook's first attempt from another, woken by `NOTIFY`. PostgreSQL is a throwaway cluster
 * (fsync off, as in the tests): these figures are the client's and the server's work, not a disk's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openPgStore } from '../src/server/store/pg/store';
import { secretRecord, sessionRecord } from '../src/server/store/records';
import { openSqliteStore } from '../src/server/store/sqlite';
import type { SessionRecord, SessionStore } from '../src/server/store/types';
import { startPgCluster } from '../src/server/test/pgCluster';
import { createWebhookDispatcher } from '../src/server/webhooks/dispatcher';
import { PG_WEBHOOK_MIGRATIONS, pgWebhookStore } from '../src/server/webhooks/pg-store';
import { startReceiver } from '../src/server/webhooks/test-support';
import { PG_CORE_MIGRATIONS } from '../src/server/store/pg/migrations';
import { watchOutbox } from '../src/server/store/pg/outbox';
import { summarize, type BenchRow } from './types';

const SESSIONS = 4_000;
const IN_FLIGHT = 32;
const LATENCY_SAMPLES = 200;

/** Runs `n` calls of `one`, `IN_FLIGHT` at a time; returns calls per second. */
async function rate(n: number, one: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < n) await one(next++);
    }),
  );
  return Math.round(n / ((performance.now() - started) / 1000));
}

async function measure(name: string, store: SessionStore): Promise<BenchRow[]> {
  const acct = await store.ensureAccount('bench', 1);
  const scope = { accountId: acct.id, mode: 'test' as const };
  const made: SessionRecord[] = [];
  const creates = await rate(SESSIONS, async (i) => {
    const id = `sess_${String(i).padStart(6, '0')}`;
    const s = sessionRecord({ id, accountId: acct.id, mode: 'test', createdAt: 1000 + i });
    await store.createSession(s, secretRecord(id, `cs_${i}`, s.createdAt));
    made[i] = s;
  });
  const reads = await rate(SESSIONS, (i) => store.getSessionWithSecret(scope, made[i]!.id));
  const updates = await rate(SESSIONS, (i) => {
    const s = made[i]!;
    return store.updateSession(s, { ...s, status: 'inProgress', startedAt: 2000 }, 2000);
  });
  return [
    {
      name: `${name}: session creates per second (${IN_FLIGHT} in flight)`,
      value: creates,
      unit: '/s',
    },
    { name: `${name}: session reads per second (with secret)`, value: reads, unit: '/s' },
    { name: `${name}: status updates per second (with their event)`, value: updates, unit: '/s' },
  ];
}

/** Create in one instance → first webhook attempt received from another's dispatcher. */
async function webhookLatency(url: string): Promise<BenchRow[]> {
  const migrations = [...PG_CORE_MIGRATIONS, ...PG_WEBHOOK_MIGRATIONS];
  const writer = await openPgStore({ url, migrations });
  const sender = await openPgStore({ url, migrations });
  const arrivals: number[] = [];
  const receiver = await startReceiver(() => {
    arrivals.push(performance.now());
    return 200;
  });
  const acct = await writer.ensureAccount('hooks', 1);
  await pgWebhookStore(writer.pg).addEndpoint({
    accountId: acct.id,
    mode: 'test',
    url: receiver.url,
    eventTypes: null,
    secret: 'whsec_bench',
    now: Date.now(),
  });
  const d = createWebhookDispatcher({ store: pgWebhookStore(sender.pg), addressPolicy: 'local' });
  const unwatch = await watchOutbox(sender.pg, () => d.notify());
  d.start();
  try {
    const samples: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 10)); // idle between creates
      const before = performance.now();
      const s = sessionRecord({ id: `sess_hook_${i}`, accountId: acct.id, mode: 'test' });
      await writer.createSession(s, secretRecord(s.id));
      await receiver.waitFor(i + 1, 5_000);
      samples.push(arrivals[i]! - before);
    }
    const { median, p99 } = summarize(samples);
    return [
      {
        name: 'PostgreSQL: create → first webhook attempt, p50 (another instance)',
        value: median,
        unit: 'ms',
      },
      {
        name: 'PostgreSQL: create → first webhook attempt, p99',
        value: p99,
        unit: 'ms',
        target: '< 250 ms',
      },
    ];
  } finally {
    await unwatch();
    await d.stop();
    await receiver.close();
    await writer.close();
    await sender.close();
  }
}

export default async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'idv-bench-store-'));
  const sqlite = openSqliteStore({ path: join(dir, 'idv.sqlite') });
  try {
    rows.push(...(await measure('SQLite', sqlite)));
  } finally {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const cluster = await startPgCluster();
  try {
    const pg = await openPgStore({ url: await cluster.newDatabase() });
    try {
      rows.push(...(await measure('PostgreSQL (1 instance, 10 connections)', pg)));
    } finally {
      await pg.close();
    }
    rows.push(...(await webhookLatency(await cluster.newDatabase())));
  } finally {
    await cluster.stop();
  }
  return rows;
}
