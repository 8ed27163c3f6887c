/**
 * `npm run bench -- wal`: how long the SQLite WAL grows under a writer that never pauses, with the
 * store's checkpointer thread (src/server/store/checkpointer.ts) restarting it and, for contrast,
 * without the restart. 1,250 commits of 40 rows of 500 bytes each, as a run of creates writes
 * them. Without the restart a PASSIVE checkpoint never finds every frame copied when a write
 * begins, so the WAL only grows. This was a unit test until a loaded CI run starved the thread:
 * how far the WAL grows depends on the thread getting a core, so it is a figure, not an assertion.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { startCheckpointer } from '../src/server/store/checkpointer';
import type { BenchRow } from './types';

async function highWaterMb(restartFrames: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'idv-wal-bench-'));
  const path = join(dir, 'db.sqlite');
  const db = new BetterSqlite3(path);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 100000');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  const fill = db.transaction(() => {
    for (let i = 0; i < 40; i++) insert.run('x'.repeat(500));
  });
  const cp = startCheckpointer(path, 20, { restartFrames });
  let largest = 0;
  try {
    for (let commit = 0; commit < 1250; commit++) {
      fill();
      largest = Math.max(largest, statSync(`${path}-wal`).size);
      if (commit % 10 === 9) await new Promise((r) => setImmediate(r));
    }
  } finally {
    await cp.stop();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return largest / (1024 * 1024);
}

export default async function run(): Promise<BenchRow[]> {
  const withRestart = await highWaterMb(256);
  const without = await highWaterMb(Number.MAX_SAFE_INTEGER);
  return [
    {
      name: 'WAL high-water, continuous writer, checkpointer restarting at 256 frames',
      value: Math.round(withRestart * 10) / 10,
      unit: 'MB',
      target: '< 24 MB',
    },
    {
      name: 'WAL high-water, continuous writer, PASSIVE checkpoints only',
      value: Math.round(without * 10) / 10,
      unit: 'MB',
    },
  ];
}
