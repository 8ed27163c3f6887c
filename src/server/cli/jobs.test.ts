import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteJobQueue } from '../jobs/queue';
import { SERVER_MIGRATIONS } from '../features';
import { openSqliteStore } from '../store/sqlite';
import { runIdv } from './test-support';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idv-cli-jobs-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const idv = (...argv: string[]) => runIdv(dir, ...argv);

/** Jobs in the data folder's database, as the server's worker leaves them: `fail` of them gave up. */
async function withJobs<T>(fn: (q: ReturnType<typeof sqliteJobQueue>) => T): Promise<T> {
  const store = openSqliteStore({
    path: join(dir, 'idv.sqlite'),
    migrations: SERVER_MIGRATIONS,
    backgroundCheckpoints: false,
  });
  try {
    return fn(sqliteJobQueue(store.db));
  } finally {
    await store.close();
  }
}

function giveUp(q: ReturnType<typeof sqliteJobQueue>, kind: string, error: string): number {
  const id = q.enqueue(kind, { n: 1 }, 0);
  const job = q.claim(0, 1000, [kind])!;
  q.fail(job, error, 0, 0, 1);
  return id;
}

describe('idv jobs', () => {
  it('lists the jobs that gave up and queues the ones named again', async () => {
    const [a, b] = await withJobs((q) => {
      q.enqueue('analysis.video', {}, 0); // pending: neither listed nor requeued
      return [giveUp(q, 'liveness.decide', 'model missing'), giveUp(q, 'analysis.session', 'disk')];
    });
    const listed = await idv('jobs', 'failed');
    expect(listed.code).toBe(0);
    expect(listed.out).toEqual([
      `${a}\tliveness.decide\tmodel missing`,
      `${b}\tanalysis.session\tdisk`,
    ]);
    const json = JSON.parse((await idv('jobs', 'failed', '--json')).out[0]!) as { id: number }[];
    expect(json.map((j) => j.id)).toEqual([a, b]);

    const retried = await idv('jobs', 'retry', String(a));
    expect(retried).toMatchObject({ code: 0, out: [String(a)] });
    expect(retried.err).toContain('requeued 1 job');
    await withJobs((q) => {
      expect(q.failed().map((j) => j.id)).toEqual([b]);
      expect(q.pendingCount()).toBe(2);
      // Due now, with its tries counted afresh.
      expect(q.claim(Date.now(), 1000, ['liveness.decide'])).toMatchObject({ id: a, tries: 1 });
    });
  });

  it('says which ids were not failed jobs, and --all takes every one', async () => {
    const id = await withJobs((q) => giveUp(q, 'liveness.decide', 'x'));
    const wrong = await idv('jobs', 'retry', '999', String(id));
    expect(wrong.code).toBe(1);
    expect(wrong.out).toEqual([String(id)]);
    expect(wrong.err).toContain('not failed jobs (left alone): 999');
    expect((await idv('jobs', 'retry', '--all')).err).toContain('requeued 0 jobs');
    await withJobs((q) => giveUp(q, 'liveness.decide', 'y'));
    expect((await idv('jobs', 'retry', '--all')).out).toHaveLength(1);
    expect((await idv('jobs', 'failed')).err).toContain('no failed jobs');
  });

  it('refuses a bad command line with its usage', async () => {
    for (const argv of [[], ['retry'], ['retry', 'x'], ['retry', '--all', '3'], ['failed', '3']]) {
      const r = await idv('jobs', ...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toContain('usage: idv jobs');
    }
  });
});
