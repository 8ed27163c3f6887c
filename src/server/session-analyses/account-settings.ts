/**
 * Per-account switches kept in the store's SQLite file (`idv settings …`).
 */
import type { Database } from 'better-sqlite3';

export const DEEPFAKE_SETTING = 'deepfake_detection';

export interface AccountSettings {
  deepfakeEnabled(accountId: string): boolean;
  setDeepfake(accountId: string, on: boolean, now: number): void;
  /** Every setting of an account, by name. */
  all(accountId: string): Record<string, string>;
}

/**
 * The account settings over the store's handle (the tables of `ANALYSES_MIGRATIONS` must exist).
 *
 * @example
 * const settings = sqliteAccountSettings(store.db);
 * settings.setDeepfake(account.id, true, Date.now());
 * settings.deepfakeEnabled(account.id); // true
 */
export function sqliteAccountSettings(db: Database): AccountSettings {
  const get = db.prepare('SELECT value FROM account_settings WHERE account_id = ? AND name = ?');
  const put = db.prepare(`INSERT INTO account_settings (account_id, name, value, updated_at)
    VALUES (?, ?, ?, ?) ON CONFLICT (account_id, name) DO UPDATE SET value = excluded.value,
    updated_at = excluded.updated_at`);
  const list = db.prepare('SELECT name, value FROM account_settings WHERE account_id = ?');
  return {
    deepfakeEnabled(accountId) {
      return (get.pluck().get(accountId, DEEPFAKE_SETTING) as string | undefined) === 'on';
    },
    setDeepfake(accountId, on, now) {
      put.run(accountId, DEEPFAKE_SETTING, on ? 'on' : 'off', now);
    },
    all(accountId) {
      const rows = list.all(accountId) as { name: string; value: string }[];
      return Object.fromEntries(rows.map((r) => [r.name, r.value]));
    },
  };
}
