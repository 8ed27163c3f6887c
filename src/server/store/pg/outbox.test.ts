import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgCluster, type PgCluster } from '../../test/pgCluster';
import { secretRecord, sessionRecord } from '../records';
import { watchOutbox } from './outbox';
import { openPgStore } from './store';

let cluster: PgCluster;
beforeAll(async () => {
  cluster = await startPgCluster();
}, 60_000);
afterAll(() => cluster.stop());

describe('watchOutbox', () => {
  it('wakes a watcher in one instance when another commits outbox events', async () => {
    const url = await cluster.newDatabase();
    const watcher = await openPgStore({ url, max: 2 });
    const writer = await openPgStore({ url, max: 2 });
    try {
      const wakes: string[] = [];
      let next: (() => void) | null = null;
      const woken = () => new Promise<void>((r) => (next = r));
      const stop = await watchOutbox(watcher.pg, () => {
        wakes.push('wake');
        next?.();
      });
      const acct = await writer.ensureAccount('acme', 1);
      let wake = woken();
      await writer.createSession(
        sessionRecord({ id: 'sess_1', accountId: acct.id }),
        secretRecord('sess_1'),
      );
      await wake;
      wake = woken();
      await writer.appendEvent({
        id: 'evt_x',
        accountId: acct.id,
        mode: 'live',
        type: 'settings.updated',
        sessionId: '',
        createdAt: 2,
        payload: '{}',
      });
      await wake;
      expect(wakes).toHaveLength(2);
      await stop();
    } finally {
      await watcher.close();
      await writer.close();
    }
  });
});
