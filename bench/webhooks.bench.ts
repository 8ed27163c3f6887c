/**
 * Webhook figures: signed deliveries per second to a local receiver answering 200, and the time
 * from a status change (a session created through the real app and store) to the first delivery
 * attempt arriving at the receiver, when the dispatcher is idle.
 */
import { performance } from 'node:perf_hooks';
import { createApp } from '../src/server/app';
import { DEMO_FLOW } from '../src/server/demo';
import { createApiKey } from '../src/server/keys';
import { createSqliteWebhookStore } from '../src/server/webhooks/sqlite-store';
import { registerEndpoint } from '../src/server/webhooks/endpoints';
import { startWebhookDispatcher } from '../src/server/webhooks/service';
import { openTempStore, startReceiver } from '../src/server/webhooks/test-support';
import { summarize, type BenchRow } from './types';
import { promised } from '../src/server/store/promised';

const THROUGHPUT_EVENTS = 5_000;
const LATENCY_SAMPLES = 300;

async function throughput(): Promise<BenchRow[]> {
  const t = openTempStore();
  const receiver = await startReceiver(() => 200);
  try {
    const reg = await registerEndpoint(promised(createSqliteWebhookStore(t.db)), {
      accountId: 'acct_a',
      mode: 'test',
      url: receiver.url,
      policy: 'local',
      now: Date.now(),
    });
    if (!reg.ok) throw new Error(reg.problems.join('; '));
    // The backlog is written first, in one transaction, so the figure is the dispatcher's alone.
    t.db.transaction(() => {
      for (let i = 0; i < THROUGHPUT_EVENTS; i++) t.event();
    })();
    const started = performance.now();
    const webhooks = startWebhookDispatcher({ db: t.db });
    await receiver.waitFor(THROUGHPUT_EVENTS, 120_000);
    const elapsed = (performance.now() - started) / 1000;
    await webhooks.stop();
    const delivered = t.db
      .prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'delivered'")
      .get() as { n: number };
    if (delivered.n < THROUGHPUT_EVENTS * 0.99) {
      throw new Error(`only ${delivered.n} of ${THROUGHPUT_EVENTS} recorded as delivered`);
    }
    return [
      {
        name: `signed deliveries per second (${THROUGHPUT_EVENTS} events, 1 endpoint, default concurrency)`,
        value: Math.round(THROUGHPUT_EVENTS / elapsed),
        unit: '/s',
        target: '≥ 1000/s',
      },
    ];
  } finally {
    await receiver.close();
    await t.close();
  }
}

async function latency(): Promise<BenchRow[]> {
  const t = openTempStore();
  const arrivals = new Map<string, number>();
  const receiver = await startReceiver((req) => {
    arrivals.set((JSON.parse(req.body.toString()) as { id: string }).id, performance.now());
    return 200;
  });
  try {
    const app = await createApp({
      store: t.store,
      db: t.store.db,
      publicUrl: 'http://127.0.0.1',
      rateLimits: false,
    });
    const { key } = await createApiKey(t.store, {
      accountName: 'bench',
      mode: 'test',
      now: Date.now(),
    });
    const account = await t.store.findAccount('bench');
    const reg2 = await registerEndpoint(promised(createSqliteWebhookStore(t.db)), {
      accountId: account!.id,
      mode: 'test',
      url: receiver.url,
      policy: 'local',
      now: Date.now(),
    });
    if (!reg2.ok) throw new Error(reg2.problems.join('; '));
    const webhooks = startWebhookDispatcher({ db: t.db });
    const samples: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 10)); // idle between changes
      // The clock starts before the request: the figure includes creating the session.
      const before = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: '/sessions',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        payload: { flow: DEMO_FLOW, clientReferenceId: `bench-${i}` },
      });
      if (res.statusCode >= 300) throw new Error(`POST /sessions: ${res.statusCode} ${res.body}`);
      await receiver.waitFor(i + 1, 5_000);
      const event = [...arrivals.keys()][i]!;
      samples.push(arrivals.get(event)! - before);
    }
    await webhooks.stop();
    await app.close();
    const s = summarize(samples);
    return [
      {
        name: 'POST /sessions (status created) → first attempt received, p50 (idle)',
        value: s.median,
        unit: 'ms',
      },
      {
        name: 'POST /sessions (status created) → first attempt received, p99 (idle)',
        value: s.p99,
        unit: 'ms',
        target: '< 250 ms',
      },
    ];
  } finally {
    await receiver.close();
    await t.close();
  }
}

/**
 * The webhook suite of `npm run bench`.
 *
 * @example
 * (await run()).map((r) => `${r.name}: ${r.value} ${r.unit}`);
 */
export default async function run(): Promise<BenchRow[]> {
  return [...(await throughput()), ...(await latency())];
}
