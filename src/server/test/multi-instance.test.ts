/**
 * Three API instances and a worker on one PostgreSQL, behind a round-robin proxy, under a mixed
 * load; one instance killed with kill -9 mid-load and started again (issue 25).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureJpeg, missingFixtures } from '../liveness/test-support';
import { startReceiver, type Receiver } from '../webhooks/test-support';
import { freePort } from './freePort';
import { newTally, runMixedLoad, undecided } from './mixedLoad';
import { startPgCluster, type PgCluster } from './pgCluster';
import { exited, idv, serve, worker } from './process';
import { startRoundRobinProxy, type RoundRobinProxy } from './roundRobinProxy';

const dir = mkdtempSync(join(tmpdir(), 'idv-multi-'));
const children: ChildProcess[] = [];
let cluster: PgCluster | undefined;
let proxy: RoundRobinProxy | undefined;
let receiver: Receiver | undefined;
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await Promise.all(children.map(exited));
  await proxy?.close();
  await receiver?.close();
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** One run of a job in one process, from the processes' debug logs (`job start` / `job end`). */
interface JobRun {
  job: string;
  pid: number;
  from: number;
  to: number;
}

/**
 * Every job run the logs show. A run with no end (its process was killed) lasts until `killedAt`
 * for the killed process, else until now.
 */
function jobRuns(logs: { pid: number; text: string }[], killed: Map<number, number>): JobRun[] {
  const runs: JobRun[] = [];
  for (const { text, pid } of logs) {
    const open = new Map<string, number>();
    for (const line of text.split('\n')) {
      if (!line.startsWith('{')) continue;
      const e = JSON.parse(line) as { msg?: string; job?: string; time: number };
      if (!e.job) continue;
      if (e.msg === 'job start') open.set(e.job, e.time);
      if (e.msg === 'job end') {
        runs.push({ job: e.job, pid, from: open.get(e.job) ?? e.time, to: e.time });
        open.delete(e.job);
      }
    }
    for (const [job, from] of open)
      runs.push({ job, pid, from, to: killed.get(pid) ?? Date.now() });
  }
  return runs;
}

/** Pairs of runs of one job, in two processes, whose times overlap. */
function overlaps(runs: JobRun[]): [JobRun, JobRun][] {
  const found: [JobRun, JobRun][] = [];
  const byJob = new Map<string, JobRun[]>();
  for (const r of runs) byJob.set(r.job, [...(byJob.get(r.job) ?? []), r]);
  for (const list of byJob.values()) {
    for (const a of list) {
      for (const b of list) {
        if (a.pid < b.pid && a.from < b.to && b.from < a.to) found.push([a, b]);
      }
    }
  }
  return found;
}

const FIXTURE = 'astronaut.png';

describe.skipIf(missingFixtures([FIXTURE]).length > 0)(
  'three API instances and a worker on PostgreSQL behind a proxy, one killed with kill -9',
  () => {
    it('loses no acknowledged session, delivers every webhook, runs no job in two places at once and finishes every analysis', async () => {
      cluster = await startPgCluster();
      const env: Record<string, string> = {
        DATA_DIR: dir,
        DATABASE_URL: await cluster.newDatabase(),
        RATE_LIMIT_LIVE: '1000000',
        LOG_LEVEL: 'debug',
        // A killed instance's job goes to another after this, not after the default minute.
        JOB_LEASE_MS: '6000',
      };
      expect((await idv(['db', 'migrate'], env)).code).toBe(0);
      const key = (await idv(['keys', 'create', '--mode', 'live'], env)).stdout.trim();
      expect(key).toMatch(/^sk_live_/);
      receiver = await startReceiver();
      const added = await idv(['webhooks', 'add', receiver.url, '--mode', 'live'], env);
      expect(added.code, added.stderr).toBe(0);

      const ports = [await freePort(), await freePort(), await freePort()];
      proxy = await startRoundRobinProxy(ports.map((p) => `http://127.0.0.1:${p}`));
      const instanceEnv = (port: number) => ({
        ...env,
        PORT: String(port),
        PUBLIC_URL: proxy!.url,
      });
      const logs: { pid: number; text: () => string }[] = [];
      const startInstance = async (port: number) => {
        const s = await serve(instanceEnv(port));
        children.push(s.child);
        logs.push({ pid: s.child.pid!, text: s.log });
        return s;
      };
      const instances = [];
      for (const port of ports) instances.push(await startInstance(port));
      const w = await worker(env);
      children.push(w.child);
      logs.push({ pid: w.child.pid!, text: w.log });

      // Load until well after the restart: the kill lands mid-load, with jobs in hand.
      const tally = newTally();
      const killed = new Map<number, number>();
      let phase: 'before' | 'after' = 'before';
      let afterFrom = 0;
      const load = runMixedLoad({
        base: proxy.url,
        key,
        frame: fixtureJpeg(FIXTURE),
        creators: 4,
        users: 4,
        until: () => phase === 'after' && tally.finished.length >= afterFrom + 8,
        tally,
      });
      while (tally.acknowledged.length < 120 || tally.finished.length < 6) {
        await new Promise((ok) => setTimeout(ok, 20));
      }
      const victim = instances[1]!;
      victim.child.kill('SIGKILL');
      killed.set(victim.child.pid!, Date.now());
      await exited(victim.child);
      await startInstance(ports[1]!);
      afterFrom = tally.finished.length;
      phase = 'after';
      await load;

      // No acknowledged session lost.
      const missing: string[] = [];
      for (const id of tally.acknowledged) {
        const r = await fetch(`${proxy.url}/sessions/${id}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        if (r.status !== 200) missing.push(id);
      }
      expect(missing).toEqual([]);

      // Every analysis finished: each accepted attempt decided, no job given up.
      expect(await undecided(proxy.url, tally.finished, 120_000)).toEqual([]);
      const gaveUp = await idv(['jobs', 'failed'], env);
      expect(gaveUp.stdout.trim(), gaveUp.stderr).toBe('');

      // Every event delivered at least once.
      const listed = await idv(['events', 'list', '--json', '--limit', '10000'], env);
      const events = (JSON.parse(listed.stdout) as { id: string }[]).map((e) => e.id);
      expect(events.length).toBeGreaterThanOrEqual(tally.acknowledged.length);
      const delivered = () =>
        new Set(
          receiver!.requests.map((r) => (JSON.parse(r.body.toString()) as { id: string }).id),
        );
      const end = Date.now() + 60_000;
      while (events.some((id) => !delivered().has(id)) && Date.now() < end) {
        await new Promise((ok) => setTimeout(ok, 100));
      }
      expect(events.filter((id) => !delivered().has(id))).toEqual([]);

      // No job ran in two processes at once; and the jobs were spread, so this could fail.
      const runs = jobRuns(
        logs.map((l) => ({ pid: l.pid, text: l.text() })),
        killed,
      );
      expect(new Set(runs.map((r) => r.pid)).size).toBeGreaterThan(1);
      expect(overlaps(runs)).toEqual([]);
      // The kill did cut requests off: the retries were needed.
      expect(tally.createRetries + tally.abandoned).toBeGreaterThan(0);
    }, 600_000);
  },
);
