/**
 * Platform secrets in PostgreSQL (`platform_secrets`), for instances on several machines: one
 * row per secret, made by whichever instance asks first.
 */
import type { Pg } from '../store/pg/client';
import type { PgMigration } from '../store/pg/migrations';
import { checkSecretName, type PlatformSecrets } from './types';

export const PG_PLATFORM_SECRET_MIGRATIONS: readonly PgMigration[] = [
  {
    id: 'pg_platform_secrets_0001_init',
    async up(tx) {
      await tx.unsafe(`
        CREATE TABLE platform_secrets (
          name TEXT COLLATE "C" PRIMARY KEY,
          value BYTEA NOT NULL,
          created_at BIGINT NOT NULL
        );
      `);
    },
  },
];

/**
 * Secrets in the `platform_secrets` table (`PG_PLATFORM_SECRET_MIGRATIONS` applied). `keep`
 * inserts the candidate unless the name is there, then reads the row back: of instances inserting
 * together, the unique key makes all but one wait for the first commit and insert nothing, so
 * every one reads the same value.
 *
 * @example
 * const secrets = pgPlatformSecrets(pg);
 * await secrets.keep('media-signing', randomBytes(32)); // the same bytes in every instance
 */
export function pgPlatformSecrets(pg: Pg): PlatformSecrets {
  return {
    whereIs(name) {
      checkSecretName(name);
      return `the PostgreSQL row platform_secrets "${name}"`;
    },
    async keep(name, candidate) {
      checkSecretName(name);
      await pg`INSERT INTO platform_secrets (name, value, created_at)
        VALUES (${name}, ${candidate}, ${Date.now()}) ON CONFLICT (name) DO NOTHING`;
      const [row] = await pg<{ value: Buffer }[]>`SELECT value FROM platform_secrets
        WHERE name = ${name}`;
      if (!row) throw new Error(`platform_secrets "${name}" vanished while it was being created`);
      return row.value;
    },
  };
}
