import postgres from 'postgres';

/** Column types as this store reads them: `bigint` (times in ms, counts, sequences) as numbers. */
export interface PgTypes extends Record<string, unknown> {
  bigint: number;
}

/** A pool of connections to one PostgreSQL database. */
export type Pg = postgres.Sql<PgTypes>;
/** What a statement runs on: the pool, or one transaction's connection. */
export type PgQuery = postgres.ISql<PgTypes>;
/** One transaction's connection (`pg.begin`). */
export type PgTx = postgres.TransactionSql<PgTypes>;

/** Options of `connectPg` beside the URL. */
export interface PgConnectOptions {
  /** Connections in the pool (default 10). */
  max?: number;
}

/**
 * A pool over `url` (`postgres://user:pass@host:port/db`, or `?host=/socket/dir`). Times are
 * milliseconds since 1970, past 2^31, so they are `bigint` columns; they come back as numbers
 * (exact up to 2^53). The server's notices (`CREATE … IF NOT EXISTS` skipped) are not printed.
 *
 * @example
 * const pg = connectPg('postgres://idv@127.0.0.1:5432/idv');
 * await pg`SELECT 1 AS one`; // [{ one: 1 }]
 */
export function connectPg(url: string, options: PgConnectOptions = {}): Pg {
  return postgres(url, {
    max: options.max ?? 10,
    onnotice: () => {},
    types: {
      bigint: {
        to: 20,
        from: [20],
        serialize: (x: number) => String(x),
        parse: (x: string) => Number(x),
      },
    },
  });
}

/**
 * Whether a `DATABASE_URL` names PostgreSQL (`postgres://` or `postgresql://`).
 *
 * @example
 * isPostgresUrl('postgresql://idv@db/idv'); // true
 * isPostgresUrl('sqlite:data/idv.sqlite'); // false
 */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}
