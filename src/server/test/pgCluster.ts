import { execFile } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { connectPg } from '../store/pg/client';
import { freePort } from './freePort';
import { pgBinDir } from './pgBin';

const run = promisify(execFile);

/** A throwaway PostgreSQL server, for tests and benchmarks. */
export interface PgCluster {
  /** The `postgres` database of the cluster, to make others in. */
  url: string;
  /** A new empty database, and its URL. */
  newDatabase(): Promise<string>;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/** PostgreSQL refuses to run as root: then the cluster runs as Debian's `postgres` user. */
async function serverUser(): Promise<{ uid: number; gid: number } | null> {
  if (process.getuid?.() !== 0) return null;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number((await run('id', ['-u', name])).stdout.trim());
      const gid = Number((await run('id', ['-g', name])).stdout.trim());
      return { uid, gid };
    } catch {
      // Try the next one.
    }
  }
  throw new Error('running as root, and neither a postgres nor a nobody user to run PostgreSQL as');
}

/**
 * Starts a PostgreSQL cluster in a new temporary folder: `initdb` (trust authentication, user
 * `idv`, C locale), then the server on a free loopback port with its unix socket in that folder,
 * and without fsync (the data dies with the test anyway).
 *
 * @example
 * const cluster = await startPgCluster();
 * const store = await openPgStore({ url: await cluster.newDatabase() });
 * await cluster.stop();
 */
export async function startPgCluster(): Promise<PgCluster> {
  const bin = pgBinDir();
  if (!bin) {
    throw new Error(
      "PostgreSQL's server binaries are missing (initdb, pg_ctl): on Debian, apt-get install postgresql",
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'idv-pg-'));
  const data = join(dir, 'data');
  const user = await serverUser();
  if (user) chownSync(dir, user.uid, user.gid);
  const as = user ? { uid: user.uid, gid: user.gid } : {};
  const port = await freePort();
  const pgCtl = (args: string[]) =>
    run(join(bin, 'pg_ctl'), ['-D', data, ...args], { ...as, cwd: dir });
  try {
    await run(
      join(bin, 'initdb'),
      ['-D', data, '-U', 'idv', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C'],
      { ...as, cwd: dir },
    );
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
    await pgCtl(['-l', join(dir, 'log'), '-w', '-t', '30', '-o', options, 'start']);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const url = `postgres://idv@127.0.0.1:${port}/postgres`;
  let databases = 0;
  return {
    url,
    async newDatabase() {
      const name = `idv_${++databases}`;
      const admin = connectPg(url, { max: 1 });
      try {
        await admin.unsafe(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end({ timeout: 1 });
      }
      return `postgres://idv@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      try {
        await pgCtl(['-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
