/**
 * The data lifecycle's own schema (docs/lifecycle.md): when a medium is due under its session's
 * `customization.consent.retentionDays`, the number of days the user was told.
 */
import type { Migration } from '../store/migrations';

const DAY_MS = 86_400_000;

/** `delete_after` of a medium whose session names consent days: its creation plus those days. */
const consentDeadline = (media: string) => `${media}.created_at + ${DAY_MS} * (
  SELECT CAST(json_extract(s.settings, '$.customization.consent.retentionDays') AS INTEGER)
  FROM sessions s WHERE s.id = ${media}.session_id)`;

/** After the core's and the media's migrations (the tables they read). */
export const LIFECYCLE_MIGRATIONS: readonly Migration[] = [
  {
    id: 'lifecycle_0001_consent_retention',
    up(db) {
      db.exec(`
        ALTER TABLE media ADD COLUMN delete_after INTEGER;
        CREATE INDEX media_delete_after ON media (delete_after) WHERE delete_after IS NOT NULL;
        -- Set as each medium is stored, in its insert's transaction: NULL when the session names
        -- no days (the kind's retention then applies alone).
        CREATE TRIGGER media_consent_retention AFTER INSERT ON media
        BEGIN
          UPDATE media SET delete_after = ${consentDeadline('NEW')}
          WHERE id = NEW.id AND ${consentDeadline('NEW')} IS NOT NULL;
        END;
        UPDATE media SET delete_after = ${consentDeadline('media')};
      `);
    },
  },
];
