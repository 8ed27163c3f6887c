/**
 * Platform settings (the avatar and language lists) and the `settings.*` events their changes
 * fire, written in the same transaction as the change.
 */
import { randomBytes } from 'node:crypto';
import type { Database } from 'better-sqlite3';

/**
 * Writes a platform event (`settings.avatars`, `settings.langs`) to the outbox: no account, no
 * mode, no session, so the fan-out sends it to every subscribed endpoint of every account.
 * Returns the event id.
 *
 * @example
 * appendPlatformEvent(store.db, 'settings.avatars', Date.now()); // 'evt_…'
 */
export function appendPlatformEvent(db: Database, type: string, now: number): string {
  const id = `evt_${randomBytes(16).toString('hex')}`;
  const payload = JSON.stringify({ id, type, createdAt: now, sessionId: '' });
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
