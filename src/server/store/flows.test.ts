import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Flow } from '../../core/flow';
import { flowIdentity } from '../flowIdentity';
import { PERMISSIONS_FLOW, secretRecord, sessionRecord } from './records';
import { openSqliteStore, type SqliteSessionStore } from './sqlite';

let dir: string;
let store: SqliteSessionStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'idv-flows-'));
  store = openSqliteStore({ path: join(dir, 'db.sqlite') });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the stored flows', () => {
  it('keep each flow once, under the identity its sessions’ flowId is made of', async () => {
    const acct = await store.ensureAccount('a', 1);
    // The same flow with the keys of its nodes in another order.
    const reordered = PERMISSIONS_FLOW.map((n) =>
      Object.fromEntries(Object.entries(n).reverse()),
    ) as Flow;
    const { hash, flowId } = flowIdentity(PERMISSIONS_FLOW);
    for (const [i, flow] of [PERMISSIONS_FLOW, reordered, PERMISSIONS_FLOW].entries()) {
      const id = `sess_${i}`;
      const s = sessionRecord({ id, accountId: acct.id, flowId, settings: { flow } });
      await store.createSession(s, secretRecord(id));
    }
    const flows = store.db.prepare('SELECT hash FROM flows').pluck().all();
    expect(flows).toEqual([hash]);
    const refs = store.db.prepare('SELECT DISTINCT flow_hash FROM sessions').pluck().all();
    expect(refs).toEqual([hash]);
    expect(flowId).toBe(`flow_${hash.slice(0, 16)}`);
    for (const id of ['sess_0', 'sess_1', 'sess_2']) {
      expect((await store.getSessionById(id))?.settings.flow).toEqual(PERMISSIONS_FLOW);
    }
  });
});
