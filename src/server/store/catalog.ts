import type { Database } from 'better-sqlite3';
import type { AvatarRecord, CatalogStore, LangRecord } from './types';

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
 * The avatars and languages a session may name (`avatars`, `langs`), over one SQLite database.
 *
 * @example
 * const catalog = sqliteCatalog(db);
 * (await catalog.listLangs()).map((l) => l.id); // ['en', 'es', …]
 */
export function sqliteCatalog(db: Database): CatalogStore {
  const s = {
    avatars: db.prepare('SELECT * FROM avatars ORDER BY created_at, id'),
    avatar: db.prepare('SELECT * FROM avatars WHERE id = ?'),
    upsertAvatar: db.prepare(`INSERT INTO avatars (id, name, gender, image_url, created_at)
      VALUES (@id, @name, @gender, @imageUrl, @createdAt)
      ON CONFLICT (id) DO UPDATE SET name = excluded.name, gender = excluded.gender,
      image_url = excluded.image_url`),
    deleteAvatar: db.prepare('DELETE FROM avatars WHERE id = ?'),
    langs: db.prepare('SELECT id, title FROM langs ORDER BY position'),
  };
  return {
    async listAvatars() {
      return (s.avatars.all() as AvatarRow[]).map(avatarOf);
    },
    async getAvatar(id) {
      const r = s.avatar.get(id) as AvatarRow | undefined;
      return r ? avatarOf(r) : null;
    },
    async upsertAvatar(avatar) {
      s.upsertAvatar.run(avatar);
    },
    async deleteAvatar(id) {
      return s.deleteAvatar.run(id).changes > 0;
    },
    async listLangs() {
      return s.langs.all() as LangRecord[];
    },
  };
}
