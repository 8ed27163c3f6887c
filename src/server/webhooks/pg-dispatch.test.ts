/**
 * Webhooks on PostgreSQL end to end: two instances, each with its own pool and dispatcher, woken
 * by `NOTIFY` alone (their polls are a minute apart), deliver every event of a third writing
 * instance to a real receiver, each once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_CORE_MIGRATIONS } from '../store/pg/migrations';
import { watchOutbox } from '../store/pg/outbox';
import { openPgStore, type PgSessionStore } from '../store/pg/store';
import { secretRecord, sessionRecord } from '../store/records';
import { startPgCluster, type PgCluster } from '../test/pgCluster';
import { createWebhookDispatcher } from './dispatcher';
import { PG_WEBHOOK_MIGRATIONS, pgWebhookStore } from './pg-store';
import { startReceiver } from './test-support';

let cluster: PgCluster;
beforeAll(async () => {
  cluster = await startPgCluster();
}, 60_000);
afterAll(() => cluster.stop());

describe('webhooks over PostgreSQL', () => {
  it('deliver each event once across two instances, woken by NOTIFY without a poll', async () => {
    const url = await cluster.newDatabase();
    const migrations = [...PG_CORE_MIGRATIONS, ...PG_WEBHOOK_MIGRATIONS];
    const stores: PgSessionStore[] = [];
    for (let i = 0; i < 3; i++) stores.push(await openPgStore({ url, max: 4, migrations }));
    const [a, b, writer] = stores as [PgSessionStore, PgSessionStore, PgSessionStore];
    const receiver = await startReceiver(() => 200);
    const stops: (() => Promise<void>)[] = [];
    try {
      const acct = await writer.ensureAccount('acme', 1);
      await pgWebhookStore(writer.pg).addEndpoint({
        accountId: acct.id,
        mode: 'test',
        url: receiver.url,
        eventTypes: null,
        secret: 'whsec_test',
        now: Date.now(),
      });
      for (const instance of [a, b]) {
        const d = createWebhookDispatcher({
          store: pgWebhookStore(instance.pg),
          pollIntervalMs: 60_000,
          addressPolicy: 'local',
        });
        const unwatch = await watchOutbox(instance.pg, () => d.notify());
        d.start();
        stops.push(unwatch, () => d.stop());
      }
      // Both have made their first pass and sleep on a one-minute poll.
      await new Promise((r) => setTimeout(r, 100));
      const n = 20;
      await Promise.all(
        Array.from({ length: n }, (_, i) => {
          const s = sessionRecord({ id: `sess_${i}`, accountId: acct.id, mode: 'test' });
          return writer.createSession(s, secretRecord(s.id));
        }),
      );
      await receiver.waitFor(n, 10_000);
      const sessions = receiver.requests.map(
        (r) => (JSON.parse(r.body.toString()) as { sessionId: string }).sessionId,
      );
      expect(new Set(sessions).size).toBe(n);
      // Stopped, each dispatcher has recorded its results: one attempt each, so no delivery was
      // ever claimed by both.
      for (const stop of stops.splice(0).reverse()) await stop();
      const rows = await writer.pg<{ status: string; attempts: number }[]>`
        SELECT status, attempts FROM webhook_deliveries`;
      expect(rows).toHaveLength(n);
      expect(rows.every((r) => r.status === 'delivered' && r.attempts === 1)).toBe(true);
      expect(receiver.requests).toHaveLength(n);
    } finally {
      for (const stop of stops.reverse()) await stop();
      await receiver.close();
      for (const s of stores) await s.close();
    }
  });
});
