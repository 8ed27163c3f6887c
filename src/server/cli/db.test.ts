import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_SERVER_MIGRATIONS } from '../features';
import { startPgCluster, type PgCluster } from '../test/pgCluster';
import { runCli } from './main';

let cluster: PgCluster;
let dir: string;
beforeAll(async () => {
  cluster = await startPgCluster();
  dir = mkdtempSync(join(tmpdir(), 'idv-db-cli-'));
}, 60_000);
afterAll(async () => {
  await cluster.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    env: { DATA_DIR: dir, ...env },
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  return { code, out, err: err.join('\n') };
}

describe('idv db migrate', () => {
  it('applies the PostgreSQL schema once, listing what it applied', async () => {
    const env = { DATABASE_URL: await cluster.newDatabase() };
    const first = await cli(['db', 'migrate'], env);
    expect(first.code).toBe(0);
    expect(first.out).toEqual(PG_SERVER_MIGRATIONS.map((m) => m.id));
    expect(first.out).toContain('pg_jobs_0001_init');
    const again = await cli(['db', 'migrate'], env);
    expect(again).toMatchObject({ code: 0, out: [] });
    expect(again.err).toMatch(/up to date \(0 applied now\)/);
  });

  it('brings the data folder’s SQLite file up to date without DATABASE_URL', async () => {
    const r = await cli(['db', 'migrate'], {});
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/idv\.sqlite: up to date \(\d+ migrations applied\)/);
  });

  it('names the problem when the database cannot be reached or the command is wrong', async () => {
    const r = await cli(['db', 'migrate'], { DATABASE_URL: 'postgres://idv@127.0.0.1:1/none' });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^idv db: .*(ECONNREFUSED|connect)/);
    expect((await cli(['db'], {})).code).toBe(2);
  });
});
