import type { AvatarRecord, CatalogStore, LangRecord } from '../types';
import type { PgQuery } from './client';

interface AvatarRow {
  id: string;
  name: string;
  gender: AvatarRecord['gender'];
  image_url: string;
  created_at: number;
}

const avatarOf = (r: AvatarRow): AvatarRecord => ({
  id: r.id,
  name: r.name,
  gender: r.gender,
  imageUrl: r.image_url,
  createdAt: r.created_at,
});

/**
 * The avatars and languages a session may name (`avatars`, `langs`), over PostgreSQL (the pool,
 * or a transaction of a change that writes its event with it).
 *
 * @example
 * const catalog = pgCatalog(pg);
 * (await catalog.listLangs()).map((l) => l.id); // ['en', 'es', …]
 */
export function pgCatalog(pg: PgQuery): CatalogStore {
  return {
    async listAvatars() {
      return (await pg<AvatarRow[]>`SELECT * FROM avatars ORDER BY created_at, id`).map(avatarOf);
    },
    async getAvatar(id) {
      const [r] = await pg<AvatarRow[]>`SELECT * FROM avatars WHERE id = ${id}`;
      return r ? avatarOf(r) : null;
    },
    async upsertAvatar(a) {
      await pg`INSERT INTO avatars (id, name, gender, image_url, created_at)
        VALUES (${a.id}, ${a.name}, ${a.gender}, ${a.imageUrl}, ${a.createdAt})
        ON CONFLICT (id) DO UPDATE SET name = excluded.name, gender = excluded.gender,
        image_url = excluded.image_url`;
    },
    async deleteAvatar(id) {
      return (await pg`DELETE FROM avatars WHERE id = ${id}`).count > 0;
    },
    async listLangs() {
      return [...(await pg<LangRecord[]>`SELECT id, title FROM langs ORDER BY position`)];
    },
  };
}
