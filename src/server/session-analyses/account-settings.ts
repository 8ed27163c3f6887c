/**
 * Per-account switches (`idv settings …`), in the store's database: SQLite's file here,
 * PostgreSQL's in `pg-account-settings.ts`.
 */
import type { Database } from 'better-sqlite3';

export const DEEPFAKE_SETTING = 'deepfake_detection';

/** Every method may be a round trip to a shared database: all answer with promises. */
export interface AccountSettings {
  deepfakeEnabled(accountId: string): Promise<boolean>;
  setDeepfake(accountId: string, on: boolean, now: number): Promise<void>;
  /** Every setting of an account, by name. */
  all(accountId: string): Promise<Record<string, string>>;
}

/**
 * The account settings over the store's handle (the tables of `ANALYSES_MIGRATIONS` must exist).
 *
 * @example
 * const settings = sqliteAccountSettings(store.db);
 * await settings.setDeepfake(account.id, true, Date.now());
 * await settings.deepfakeEnabled(account.id); // true
 */
export function sqliteAccountSettings(db: Database): AccountSettings {
  const get = db.prepare('SELECT value FROM account_settings WHERE account_id = ? AND name = ?');
  const put = db.prepare(`INSERT INTO account_settings (account_id, name, value, updated_at)
    VALUES (?, ?, ?, ?) ON CONFLICT (account_id, name) DO UPDATE SET value = excluded.value,
    updated_at = excluded.updated_at`);
  const list = db.prepare('SELECT name, value FROM account_settings WHERE account_id = ?');
  return {
    async deepfakeEnabled(accountId) {
      return (get.pluck().get(accountId, DEEPFAKE_SETTING) as string | undefined) === 'on';
    },
    async setDeepfake(accountId, on, now) {
      put.run(accountId, DEEPFAKE_SETTING, on ? 'on' : 'off', now);
    },
    async all(accountId) {
      const rows = list.all(accountId) as { name: string; value: string }[];
      return Object.fromEntries(rows.map((r) => [r.name, r.value]));
    },
  };
}
