import type { Database } from 'better-sqlite3';
import type { Flow } from '../../core/flow';
import { flowRecord } from '../knownFlows';

/** The flows of sessions, each stored once under its identity (`flows`). */
export interface SqliteFlows {
  /** A stored flow by its hash; the same object for every read of it. */
  of(hash: string): Flow;
  /** The hash a flow is stored under (its identity, `flowIdentity`) and the text stored. */
  keyOf(flow: Flow): { hash: string; json: string };
}

const PARSED_MAX = 1000;

/**
 * The `flows` table of one SQLite database. A session row names its flow by hash; the flow's
 * text is parsed once and the value kept, so that every read of a session of that flow shares
 * it (and the compiled machine kept with it, `compiled` in the core).
 *
 * @example
 * const flows = sqliteFlows(db);
 * rowToSession(row, flows.of);
 */
export function sqliteFlows(db: Database): SqliteFlows {
  const byHash = db.prepare('SELECT flow FROM flows WHERE hash = ?').pluck();
  const parsed = new Map<string, Flow>();
  return {
    of(hash) {
      let flow = parsed.get(hash);
      if (!flow) {
        const json = byHash.get(hash) as string | undefined;
        if (json === undefined) throw new Error(`flow ${hash} is missing from the store`);
        flow = JSON.parse(json) as Flow;
        if (parsed.size >= PARSED_MAX) parsed.clear();
        parsed.set(hash, flow);
      }
      return flow;
    },
    keyOf: flowRecord,
  };
}
