/**
 * `idv db migrate`: brings the database `DATABASE_URL` names (or the data folder's SQLite file)
 * up to date and says what it applied, so an operator can prepare a PostgreSQL database before
 * any instance starts on it.
 */
import { PG_SERVER_MIGRATIONS } from '../features';
import { databaseFromEnv } from '../store/databaseUrl';
import { connectPg } from '../store/pg/client';
import { runPgMigrations } from '../store/pg/migrations';
import type { CliContext, CommandGroup } from './command';

const USAGE = [
  'db migrate                    apply the schema changes not yet applied, and list them',
];

async function run(args: string[], ctx: CliContext): Promise<number> {
  if (args.length !== 1 || args[0] !== 'migrate') {
    for (const u of USAGE) ctx.err(`usage: idv ${u}`);
    return 2;
  }
  const database = databaseFromEnv(ctx.env['DATABASE_URL'], ctx.dataDir);
  if (database.kind === 'sqlite') {
    const store = await ctx.openStore();
    const n = store.db.prepare('SELECT count(*) AS n FROM migrations').get() as { n: number };
    ctx.err(`${database.path}: up to date (${n.n} migrations applied)`);
    return 0;
  }
  const pg = connectPg(database.url, { max: 1 });
  try {
    const applied = await runPgMigrations(pg, PG_SERVER_MIGRATIONS);
    for (const id of applied) ctx.out(id);
    ctx.err(`PostgreSQL: up to date (${applied.length} applied now)`);
    return 0;
  } finally {
    await pg.end({ timeout: 5 });
  }
}

export const dbCommand: CommandGroup = {
  name: 'db',
  summary: 'The database: apply its schema changes (DATABASE_URL, or DATA_DIR/idv.sqlite)',
  usage: USAGE,
  run,
};
