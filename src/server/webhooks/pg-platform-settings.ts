import { pgCatalog } from '../store/pg/catalog';
import type { Pg } from '../store/pg/client';
import { platformEvent, type PlatformSettings } from './platform-settings';

/**
 * The platform settings on PostgreSQL: each change and its event in one transaction. Changes made
 * by two instances at once are taken one after the other (a transaction-scoped advisory lock), so
 * each one's "did it change anything" is true of what it saw.
 *
 * @example
 * const platform = pgPlatformSettings(store.pg);
 * await platform.change('settings.langs', Date.now(), (c) => c.removeLang('pt'));
 */
export function pgPlatformSettings(pg: Pg): PlatformSettings {
  return {
    async change(type, now, change) {
      return pg.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${PLATFORM_LOCK})`;
        const catalog = pgCatalog(tx);
        const changed = await change({
          getAvatar: (id) => catalog.getAvatar(id),
          upsertAvatar: (a) => catalog.upsertAvatar(a),
          deleteAvatar: (id) => catalog.deleteAvatar(id),
          async addLang(id, title, position) {
            const added = await tx`INSERT INTO langs (id, title, position)
              VALUES (${id}, ${title}, ${position}) ON CONFLICT (id) DO NOTHING`;
            return added.count > 0;
          },
          async removeLang(id) {
            return (await tx`DELETE FROM langs WHERE id = ${id}`).count > 0;
          },
        });
        if (!changed) return { changed, eventId: null };
        const e = platformEvent(type, now);
        await tx`INSERT INTO events (id, account_id, mode, type, session_id, created_at, payload)
          VALUES (${e.id}, '', '', ${type}, '', ${now}, ${e.payload})`;
        return { changed, eventId: e.id };
      });
    },
  };
}

/** Any number, the same in every instance: the key of the lock changes of the settings hold. */
const PLATFORM_LOCK = 7_316_020;
