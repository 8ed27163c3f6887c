/**
 * `npm run bench -- scale`: the whole service as processes (`idv serve`, `idv worker`) over HTTP,
 * on SQLite and on PostgreSQL with one and two API instances behind a round-robin proxy: creates
 * and reads per second, frame analyses per second with one and two workers, and the time from a
 * create to its webhook's first attempt. docs/deploy.md reads these figures into a model of N
 * machines.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureJpeg, missingFixtures } from '../src/server/liveness/test-support';
import { freePort } from '../src/server/test/freePort';
import { LOAD_LIVENESS_FLOW, newTally, undecided } from '../src/server/test/mixedLoad';
import { startPgCluster, type PgCluster } from '../src/server/test/pgCluster';
import { exited, idv, serve, worker } from '../src/server/test/process';
import { startRoundRobinProxy } from '../src/server/test/roundRobinProxy';
import { startReceiver } from '../src/server/webhooks/test-support';
import { summarize, type BenchRow } from './types';

const CREATES = 600;
const READS = 3000;
const IN_FLIGHT = 32;
const LATENCY_SAMPLES = 60;
const ANALYSIS_SESSIONS = 20;

/** Runs `n` calls of `one`, `IN_FLIGHT` at a time; calls per second. */
async function rate(n: number, one: (i: number) => Promise<void>): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < n) await one(next++);
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

const MINIMAL = [
  { id: 'start', type: 'start', outcome: 'done' },
  { id: 'done', type: 'end' },
];

interface Deployment {
  base: string;
  key: string;
  env: Record<string, string>;
  children: ChildProcess[];
  stop(): Promise<void>;
}

/**
 * `instances` API processes (behind the proxy on PostgreSQL; `apiOnly`: running no jobs) and
 * `workers` worker processes.
 */
async function deploy(
  database: string | null,
  instances: number,
  workers: number,
  apiOnly = workers > 0,
): Promise<Deployment> {
  const dir = mkdtempSync(join(tmpdir(), 'idv-scale-'));
  const env: Record<string, string> = {
    DATA_DIR: dir,
    RATE_LIMIT_LIVE: '100000000',
    ...(database ? { DATABASE_URL: database } : {}),
  };
  const key = (await idv(['keys', 'create', '--mode', 'live'], env)).stdout.trim();
  const ports = await Promise.all(Array.from({ length: instances }, () => freePort()));
  // On PostgreSQL one instance goes through the proxy too, so 1 and 2 instances compare alike.
  const proxy =
    instances > 1 || database
      ? await startRoundRobinProxy(ports.map((p) => `http://127.0.0.1:${p}`))
      : null;
  const children: ChildProcess[] = [];
  let base = '';
  for (const port of ports) {
    const s = await serve(
      { ...env, PORT: String(port), ...(proxy ? { PUBLIC_URL: proxy.url } : {}) },
      apiOnly ? ['--no-worker'] : [],
    );
    children.push(s.child);
    base = proxy?.url ?? s.url;
  }
  for (let i = 0; i < workers; i++) children.push((await worker(env)).child);
  return {
    base,
    key,
    env,
    children,
    async stop() {
      for (const c of children) c.kill('SIGTERM');
      await Promise.all(children.map(exited));
      await proxy?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function createsAndReads(d: Deployment, name: string): Promise<BenchRow[]> {
  const auth = { authorization: `Bearer ${d.key}`, 'content-type': 'application/json' };
  const ids: string[] = [];
  const creates = await rate(CREATES, async () => {
    const r = await fetch(`${d.base}/sessions`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ flow: MINIMAL }),
    });
    if (r.status !== 200) throw new Error(`create: ${r.status}`);
    ids.push(((await r.json()) as { session: { id: string } }).session.id);
  });
  const reads = await rate(READS, async (i) => {
    const r = await fetch(`${d.base}/sessions/${ids[i % ids.length]}`, { headers: auth });
    if (r.status !== 200) throw new Error(`read: ${r.status}`);
    await r.arrayBuffer();
  });
  return [
    { name: `${name}: session creates per second`, value: creates, unit: '/s' },
    { name: `${name}: session reads per second`, value: reads, unit: '/s' },
  ];
}

/** Create → the webhook's first attempt at a receiver, sessions made one at a time. */
async function webhookLatency(d: Deployment, name: string): Promise<BenchRow[]> {
  const arrivals = new Map<string, number>();
  const receiver = await startReceiver((req) => {
    const id = /"(sess_[A-Za-z0-9_]+)"/.exec(req.body.toString())?.[1];
    if (id && !arrivals.has(id)) arrivals.set(id, performance.now());
    return 200;
  });
  try {
    const added = await idv(['webhooks', 'add', receiver.url, '--mode', 'live'], d.env);
    if (added.code !== 0) throw new Error(added.stderr);
    // The endpoint is read by the dispatcher on its next fan-out: one create to warm it.
    const samples: number[] = [];
    for (let i = 0; i <= LATENCY_SAMPLES; i++) {
      await new Promise((r) => setTimeout(r, 10));
      const before = performance.now();
      const r = await fetch(`${d.base}/sessions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${d.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ flow: MINIMAL }),
      });
      const id = ((await r.json()) as { session: { id: string } }).session.id;
      const end = Date.now() + 10_000;
      while (!arrivals.has(id) && Date.now() < end) await new Promise((ok) => setImmediate(ok));
      if (i > 0 && arrivals.has(id)) samples.push(arrivals.get(id)! - before);
    }
    const { median, p99 } = summarize(samples);
    return [
      { name: `${name}: create → first webhook attempt, p50`, value: median, unit: 'ms' },
      {
        name: `${name}: create → first webhook attempt, p99`,
        value: p99,
        unit: 'ms',
        target: '< 250 ms',
      },
    ];
  } finally {
    await receiver.close();
  }
}

/**
 * Frames queued through the API while no worker runs, then `workers` workers started: frames
 * analysed per second until every attempt is decided.
 */
async function analyses(database: string, workers: number, frame: string): Promise<BenchRow> {
  // The API instance runs no jobs: the frames wait for the workers started below.
  const d = await deploy(database, 1, 0, true);
  const tally = newTally();
  const auth = { authorization: `Bearer ${d.key}`, 'content-type': 'application/json' };
  let frames = 0;
  for (let i = 0; i < ANALYSIS_SESSIONS; i++) {
    const created = (await (
      await fetch(`${d.base}/sessions`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ flow: LOAD_LIVENESS_FLOW }),
      })
    ).json()) as { session: { id: string }; clientSecret: { secret: string } };
    const ex = (await (
      await fetch(`${d.base}/client/exchange`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientSecret: created.clientSecret.secret }),
      })
    ).json()) as { token: string };
    const client = { authorization: `Bearer ${ex.token}`, 'content-type': 'application/json' };
    const post = async (path: string, body: unknown) =>
      (await fetch(`${d.base}/client/nodes/live/liveness${path}`, {
        method: 'POST',
        headers: client,
        body: JSON.stringify(body),
      }).then((r) => r.json())) as { attemptId: string };
    const { attemptId } = await post('/start', {});
    for (const [role, t] of [
      ['baseline', 0],
      ['challenge', 400],
      ['challenge', 800],
    ] as const) {
      await post(`/${attemptId}/frames`, {
        role,
        t,
        image: frame,
        ...(role === 'challenge' ? { challengeIndex: 0 } : {}),
      });
      frames++;
    }
    await post(`/${attemptId}/finish`, { ended: 'done' });
    tally.finished.push({ sessionId: created.session.id, token: ex.token, attemptId });
  }
  const t0 = performance.now();
  for (let i = 0; i < workers; i++) d.children.push((await worker(d.env)).child);
  const left = await undecided(d.base, tally.finished, 300_000);
  const seconds = (performance.now() - t0) / 1000;
  await d.stop();
  if (left.length > 0) throw new Error(`${left.length} attempts undecided`);
  return {
    name: `PostgreSQL, ${workers} worker${workers > 1 ? 's' : ''}: frames analysed per second (with decisions, worker start included)`,
    value: frames / seconds,
    unit: '/s',
  };
}

export default async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  let cluster: PgCluster | null = null;
  try {
    const sqlite = await deploy(null, 1, 0);
    rows.push(...(await createsAndReads(sqlite, 'SQLite, 1 instance')));
    rows.push(...(await webhookLatency(sqlite, 'SQLite, 1 instance')));
    await sqlite.stop();

    cluster = await startPgCluster();
    const one = await deploy(await cluster.newDatabase(), 1, 1);
    rows.push(...(await createsAndReads(one, 'PostgreSQL, 1 instance')));
    rows.push(...(await webhookLatency(one, 'PostgreSQL, 1 instance + 1 worker')));
    await one.stop();
    const two = await deploy(await cluster.newDatabase(), 2, 1);
    rows.push(...(await createsAndReads(two, 'PostgreSQL, 2 instances')));
    await two.stop();

    if (missingFixtures(['astronaut.png']).length === 0) {
      const frame = fixtureJpeg('astronaut.png');
      rows.push(await analyses(await cluster.newDatabase(), 1, frame));
      rows.push(await analyses(await cluster.newDatabase(), 2, frame));
    }
  } finally {
    await cluster?.stop();
  }
  return rows;
}
