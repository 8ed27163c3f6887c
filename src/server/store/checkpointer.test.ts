import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCheckpointer } from './checkpointer';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idv-ckpt-'));
  path = join(dir, 'db.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A writer whose own automatic checkpoint never fires, as the store sets it up. */
function openWriter() {
  const db = new BetterSqlite3(path);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 100000');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  return db;
}

const fill = (db: BetterSqlite3.Database, rows: number) => {
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run('x'.repeat(500));
  })();
};

async function until(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

describe('startCheckpointer', () => {
  it('copies committed pages into the database file from its own thread', async () => {
    const db = openWriter();
    const before = statSync(path).size;
    fill(db, 4000);
    // Nothing but the thread moves pages out of the WAL here.
    expect(statSync(path).size).toBe(before);
    const cp = startCheckpointer(path, 20);
    try {
      expect(await until(() => statSync(path).size > before + 1_000_000)).toBe(true);
      expect((db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n).toBe(4000);
    } finally {
      await cp.stop();
      db.close();
    }
  });

  // How far the WAL grows under a writer that never pauses depends on this thread getting a core,
  // so it is measured by `npm run bench -- wal`, not asserted here.

  it('stops cleanly and may be stopped twice', async () => {
    const db = openWriter();
    const cp = startCheckpointer(path, 20);
    await Promise.all([cp.stop(), cp.stop()]);
    fill(db, 10);
    expect((db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n).toBe(10);
    db.close();
  });
});
