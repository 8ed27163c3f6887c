import type { Backend } from '../backend';
import type { Clock } from '../clock';
import type { SqliteSessionStore } from '../store/sqlite';

/** What a command gets: where the data is, how to print, and the store (opened on demand). */
export interface CliContext {
  env: Record<string, string | undefined>;
  dataDir: string;
  clock: Clock;
  /** A line on stdout: the output a script reads (a key, a secret, a table). */
  out(line: string): void;
  /** A line on stderr: messages for the person. */
  err(line: string): void;
  /**
   * The database `DATABASE_URL` names (or the data folder's SQLite file), migrated; closed by the
   * dispatcher after the command.
   */
  openBackend(): Promise<Backend>;
  /**
   * The data folder's SQLite store, for the commands whose tables have no PostgreSQL twin yet;
   * refused with that reason when `DATABASE_URL` names PostgreSQL.
   */
  openStore(): Promise<SqliteSessionStore>;
}

/**
 * One `idv <name> …` command group, in its own file, named in the CLI's list (`cli/main.ts`).
 * `run` gets the arguments after the group name and returns the exit code.
 */
export interface CommandGroup {
  name: string;
  summary: string;
  /** Lines of usage, e.g. `keys create --mode test|live [--account NAME]`. */
  usage: string[];
  run(args: string[], ctx: CliContext): Promise<number>;
}
