import type { Flow } from '../../../core/flow';
import { flowRecord } from '../../knownFlows';
import { rowToSession, type SessionRow } from '../rows';
import type { SessionRecord } from '../types';
import type { PgQuery } from './client';

/** The flows of sessions on PostgreSQL, each stored once under its identity (`flows`). */
export interface PgFlows {
  /** Rows as records, their flows read (once each, then kept) on `q`. */
  records(q: PgQuery, rows: readonly SessionRow[]): Promise<SessionRecord[]>;
  /** The hash a flow is stored under (its identity, `flowIdentity`) and the text stored. */
  keyOf(flow: Flow): { hash: string; json: string };
}

const PARSED_MAX = 1000;

/**
 * The `flows` table of a PostgreSQL store. A flow's text never changes under its hash, so each
 * is parsed once and the value shared by every session of that flow, in every instance.
 *
 * @example
 * const flows = pgFlows();
 * const [session] = await flows.records(pg, rows);
 */
export function pgFlows(): PgFlows {
  const parsed = new Map<string, Flow>();
  return {
    async records(q, rows) {
      const missing = [...new Set(rows.map((r) => r.flow_hash))].filter((h) => !parsed.has(h));
      if (missing.length > 0) {
        const found = await q<{ hash: string; flow: string }[]>`SELECT hash, flow FROM flows
          WHERE hash = ANY(${missing})`;
        if (parsed.size + found.length > PARSED_MAX) parsed.clear();
        for (const f of found) parsed.set(f.hash, JSON.parse(f.flow) as Flow);
      }
      return rows.map((r) =>
        rowToSession(r, (hash) => {
          const flow = parsed.get(hash);
          if (!flow) throw new Error(`flow ${hash} is missing from the store`);
          return flow;
        }),
      );
    },
    keyOf: flowRecord,
  };
}
