/**
 * Platform settings (the avatar and language lists) and the `settings.*` events their changes
 * fire, written in the same transaction as the change: here on SQLite, on PostgreSQL in
 * `pg-platform-settings.ts`, both behind `PlatformSettings`.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { sqliteCatalog } from '../store/catalog';
import type { CatalogStore } from '../store/types';

/** The events a change of the platform settings fires. */
export type PlatformEventType = 'settings.avatars' | 'settings.langs';

/** What a change may do, inside the transaction of its event. */
export interface PlatformChange extends Pick<
  CatalogStore,
  'getAvatar' | 'upsertAvatar' | 'deleteAvatar'
> {
  /** Lists a language again at its place in the canonical order; false when it is listed. */
  addLang(id: string, title: string, position: number): Promise<boolean>;
  /** Stops listing a language; false when it was not listed. */
  removeLang(id: string): Promise<boolean>;
}

export interface PlatformSettings {
  /**
   * Runs `change` and writes its event in one transaction: both are kept or neither. `change`
   * returns whether it changed anything (no event otherwise).
   */
  change(
    type: PlatformEventType,
    now: number,
    change: (c: PlatformChange) => Promise<boolean>,
  ): Promise<{ changed: boolean; eventId: string | null }>;
}

/**
 * The id and webhook body of a platform event: no account, no mode, no session, so the fan-out
 * sends it to every subscribed endpoint of every account.
 *
 * @example
 * platformEvent('settings.langs', 5).payload; // '{"id":"evt_…","type":"settings.langs",…}'
 */
export function platformEvent(type: string, now: number): { id: string; payload: string } {
  const id = `evt_${randomBytes(16).toString('hex')}`;
  return { id, payload: JSON.stringify({ id, type, createdAt: now, sessionId: '' }) };
}

/**
 * Writes a platform event (`settings.avatars`, `settings.langs`) to the outbox. Returns the event
 * id.
 *
 * @example
 * appendPlatformEvent(store.db, 'settings.avatars', Date.now()); // 'evt_…'
 */
export function appendPlatformEvent(db: Database, type: string, now: number): string {
  const { id, payload } = platformEvent(type, now);
  db.prepare(
    `INSERT INTO events (id, account_id, mode, type, session_id, created_at, payload)
     VALUES (?, '', '', ?, '', ?, ?)`,
  ).run(id, type, now, payload);
  return id;
}

/**
 * Runs a change of the platform settings and writes its event in the same transaction: both are
 * kept or neither. `change` returns whether it changed anything (no event otherwise). The
 * connection must not be used by anything else while `change` awaits (the CLI's case).
 *
 * @example
 * await withPlatformEvent(store.db, 'settings.avatars', Date.now(), async () => {
 *   await store.upsertAvatar(avatar);
 *   return true;
 * });
 */
export async function withPlatformEvent(
  db: Database,
  type: string,
  now: number,
  change: () => Promise<boolean>,
): Promise<{ changed: boolean; eventId: string | null }> {
  db.exec('BEGIN IMMEDIATE');
  try {
    const changed = await change();
    const eventId = changed ? appendPlatformEvent(db, type, now) : null;
    db.exec('COMMIT');
    return { changed, eventId };
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw err;
  }
}

/**
 * Adds a language back to the `langs` table that `GET /langs` and session validation read, at its
 * place in the canonical order. Returns false when it is listed already. Runs inside
 * withPlatformEvent so `settings.langs` is written with it.
 *
 * @example
 * await withPlatformEvent(db, 'settings.langs', now, async () => addLang(db, 'pt', 'Português', 7));
 */
export function addLang(db: Database, id: string, title: string, position: number): boolean {
  return (
    db
      .prepare('INSERT OR IGNORE INTO langs (id, title, position) VALUES (?, ?, ?)')
      .run(id, title, position).changes > 0
  );
}

/**
 * Removes a language from the `langs` table; false when it was not listed.
 *
 * @example
 * await withPlatformEvent(db, 'settings.langs', now, async () => removeLang(db, 'pt'));
 */
export function removeLang(db: Database, id: string): boolean {
  return db.prepare('DELETE FROM langs WHERE id = ?').run(id).changes > 0;
}

/**
 * The platform settings over a better-sqlite3 handle: each change in a transaction of its own
 * (`withPlatformEvent`), so the connection must not be used by anything else meanwhile (the
 * CLI's case).
 *
 * @example
 * const platform = sqlitePlatformSettings(store.db);
 * await platform.change('settings.langs', Date.now(), (c) => c.removeLang('pt'));
 */
export function sqlitePlatformSettings(db: Database): PlatformSettings {
  const catalog = sqliteCatalog(db);
  const c: PlatformChange = {
    getAvatar: (id) => catalog.getAvatar(id),
    upsertAvatar: (a) => catalog.upsertAvatar(a),
    deleteAvatar: (id) => catalog.deleteAvatar(id),
    addLang: async (id, title, position) => addLang(db, id, title, position),
    removeLang: async (id) => removeLang(db, id),
  };
  return {
    change: (type, now, change) => withPlatformEvent(db, type, now, () => change(c)),
  };
}
