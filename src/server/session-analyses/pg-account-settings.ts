import type { Pg } from '../store/pg/client';
import { DEEPFAKE_SETTING, type AccountSettings } from './account-settings';

/**
 * The account settings on PostgreSQL (`PG_ANALYSES_MIGRATIONS` applied), read afresh on every
 * call: another instance may change them at any time.
 *
 * @example
 * const settings = pgAccountSettings(store.pg);
 * await settings.setDeepfake(account.id, true, Date.now());
 * await settings.deepfakeEnabled(account.id); // true
 */
export function pgAccountSettings(pg: Pg): AccountSettings {
  return {
    async deepfakeEnabled(accountId) {
      const [row] = await pg<{ value: string }[]>`SELECT value FROM account_settings
        WHERE account_id = ${accountId} AND name = ${DEEPFAKE_SETTING}`;
      return row?.value === 'on';
    },
    async setDeepfake(accountId, on, now) {
      await pg`INSERT INTO account_settings (account_id, name, value, updated_at)
        VALUES (${accountId}, ${DEEPFAKE_SETTING}, ${on ? 'on' : 'off'}, ${now})
        ON CONFLICT (account_id, name) DO UPDATE SET value = excluded.value,
        updated_at = excluded.updated_at`;
    },
    async all(accountId) {
      const rows = await pg<{ name: string; value: string }[]>`SELECT name, value
        FROM account_settings WHERE account_id = ${accountId} ORDER BY name`;
      return Object.fromEntries(rows.map((r) => [r.name, r.value]));
    },
  };
}
