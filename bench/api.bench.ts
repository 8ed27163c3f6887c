/**
 * API figures: requests per second of `GET /sessions/{id}` and `POST /sessions` at 50
 * connections, each as a ratio to a bare Fastify route answering a constant JSON body on the same
 * machine, and the time to fetch the first and the 2,000th page of 50 from 100,000 sessions.
 *
 * The servers run in this process; autocannon runs as its own process, so load generation and
 * the server do not share an event loop (the machine has 2 cores: one each).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Flow } from '../src/core/flow';
import { createApp } from '../src/server/app';
import { DEMO_FLOW } from '../src/server/demo';
import { clientSecret, orderedId } from '../src/server/ids';
import { createApiKey } from '../src/server/keys';
import { checkFlow } from '../src/server/sessions/create';
import { openSqliteStore, type SqliteSessionStore } from '../src/server/store/sqlite';
import { secretRecord, sessionRecord } from '../src/server/store/records';
import { summarize, type BenchRow } from './types';

const CONNECTIONS = 50;
const DURATION_S = Number(process.env['BENCH_API_SECONDS'] ?? 5);
/** Bare, read and create are measured in turn, this many times; ratios are taken per round. */
const ROUNDS = Number(process.env['BENCH_API_ROUNDS'] ?? 5);
const STORED = 100_000;
const PAGE = 50;
const DEEP_PAGE = 2_000;
const run = promisify(execFile);

const autocannonBin = join(
  dirname(createRequire(import.meta.url).resolve('autocannon/package.json')),
  'autocannon.js',
);

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const a = app.server.address();
  return `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
}

/** Requests per second, from a separate autocannon process (a short warm-up first). */
async function rps(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
  warmup = true,
): Promise<number> {
  const args = (seconds: number) => [
    autocannonBin,
    '-c',
    String(CONNECTIONS),
    '-d',
    String(seconds),
    '-j',
    ...(opts.method ? ['-m', opts.method] : []),
    ...Object.entries(opts.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}=${v}`]),
    ...(opts.body ? ['-b', opts.body] : []),
    url,
  ];
  if (warmup) await run(process.execPath, args(2), { maxBuffer: 64 * 1024 * 1024 });
  const { stdout } = await run(process.execPath, args(DURATION_S), { maxBuffer: 64 * 1024 * 1024 });
  const r = JSON.parse(stdout) as {
    requests: { average: number };
    non2xx: number;
    errors: number;
  };
  if (r.non2xx > 0 || r.errors > 0) {
    throw new Error(`${url}: ${r.non2xx} non-2xx answers and ${r.errors} errors under load`);
  }
  return r.requests.average;
}

/**
 * Fills the store with sessions spread over time; the store's group commit batches them. The
 * flow is the known one `POST /sessions` gives its sessions.
 */
async function fill(
  store: SqliteSessionStore,
  accountId: string,
  sent: Flow,
  n: number,
): Promise<void> {
  const known = checkFlow(sent).known;
  if (!known) throw new Error('the bench flow is invalid');
  const { value: flow, start: position } = known;
  const flowId = known.identity.flowId;
  const start = Date.now() - n * 1000;
  for (let from = 0; from < n; from += 5_000) {
    const pending: Promise<void>[] = [];
    for (let i = from; i < Math.min(n, from + 5_000); i++) {
      const id = orderedId('sess', 4);
      const s = sessionRecord({
        id,
        accountId,
        createdAt: start + i * 1000,
        flowId,
        clientReferenceId: `user-${i}`,
        settings: { flow, metadata: { n: String(i) } },
        position,
      });
      pending.push(store.createSession(s, secretRecord(id, clientSecret(id), s.createdAt)));
    }
    await Promise.all(pending);
  }
}

async function timePage(url: string, key: string, samples: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    const r = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
    const body = (await r.json()) as { sessions: unknown[] };
    times.push(performance.now() - t0);
    if (body.sessions.length !== PAGE) throw new Error(`page has ${body.sessions.length} sessions`);
  }
  return summarize(times).median;
}

export default async function runApiBench(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'idv-bench-'));
  const store = openSqliteStore({ path: join(dir, 'idv.sqlite') });
  const bare = Fastify({ logger: false });
  const constant = { ok: true, service: 'identity-verification', version: '2025-09-01' };
  bare.get('/bare', async () => constant);
  const app = await createApp({
    store,
    db: store.db,
    publicUrl: 'http://127.0.0.1',
    rateLimits: false,
    geo: async () => ({}),
  });
  try {
    const bareUrl = await listen(bare);
    const apiUrl = await listen(app);
    const { key } = await createApiKey(store, {
      accountName: 'bench',
      mode: 'live',
      now: Date.now(),
    });
    const auth = { authorization: `Bearer ${key}` };
    const created = await fetch(`${apiUrl}/sessions`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ flow: DEMO_FLOW, clientReferenceId: 'bench' }),
    });
    const sessionId = ((await created.json()) as { session: { id: string } }).session.id;

    // The machine is shared: measuring the three in turn, several times, and dividing within each
    // round keeps a busy moment from skewing one figure against the others.
    const createBody = JSON.stringify({
      flow: DEMO_FLOW,
      clientReferenceId: 'bench',
      metadata: { plan: 'gold' },
    });
    const bares: number[] = [];
    const reads: number[] = [];
    const creates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const warm = round === 0;
      bares.push(await rps(`${bareUrl}/bare`, {}, warm));
      reads.push(await rps(`${apiUrl}/sessions/${sessionId}`, { headers: auth }, warm));
      creates.push(
        await rps(
          `${apiUrl}/sessions`,
          {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: createBody,
          },
          warm,
        ),
      );
    }
    const median = (xs: number[]) => summarize(xs).median;
    const bareRps = median(bares);
    const readRps = median(reads);
    const createRps = median(creates);
    const readRatio = median(reads.map((r, i) => r / (bares[i] as number)));
    const createRatio = median(creates.map((c, i) => c / (bares[i] as number)));

    // Pagination over 100,000 sessions of another account, so the creates above do not count.
    const { key: pageKey, record } = await createApiKey(store, {
      accountName: 'pages',
      mode: 'live',
      now: Date.now(),
    });
    const fillStart = performance.now();
    await fill(store, record.accountId, DEMO_FLOW, STORED);
    const fillSeconds = (performance.now() - fillStart) / 1000;
    let cursor = '';
    for (let p = 1; p < DEEP_PAGE; p++) {
      const r = await fetch(
        `${apiUrl}/sessions?limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`,
        {
          headers: { authorization: `Bearer ${pageKey}` },
        },
      );
      cursor = ((await r.json()) as { nextCursor: string }).nextCursor;
      if (!cursor) throw new Error(`pagination ended at page ${p}`);
    }
    const firstUrl = `${apiUrl}/sessions?limit=${PAGE}`;
    const deepUrl = `${apiUrl}/sessions?limit=${PAGE}&cursor=${cursor}`;
    await timePage(firstUrl, pageKey, 20);
    await timePage(deepUrl, pageKey, 20);
    const first = await timePage(firstUrl, pageKey, 300);
    const deep = await timePage(deepUrl, pageKey, 300);

    return [
      {
        name: 'bare Fastify constant JSON, 50 connections',
        value: Math.round(bareRps),
        unit: 'req/s',
      },
      { name: 'GET /sessions/{id}, 50 connections', value: Math.round(readRps), unit: 'req/s' },
      {
        name: 'GET /sessions/{id} / bare (median of rounds)',
        value: readRatio,
        unit: 'ratio',
        target: '>= 0.5',
      },
      { name: 'POST /sessions, 50 connections', value: Math.round(createRps), unit: 'req/s' },
      {
        name: 'POST /sessions / bare (median of rounds)',
        value: createRatio,
        unit: 'ratio',
        target: '>= 0.3',
      },
      { name: `filling ${STORED} sessions`, value: fillSeconds, unit: 's' },
      { name: `first page of ${PAGE} (median, HTTP)`, value: first, unit: 'ms', target: '< 5 ms' },
      {
        name: `page ${DEEP_PAGE} of ${PAGE} (median, HTTP)`,
        value: deep,
        unit: 'ms',
        target: '< 5 ms',
      },
      { name: 'deep page / first page', value: deep / first, unit: 'ratio', target: '<= 1.2' },
    ];
  } finally {
    await app.close();
    await bare.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
