/**
 * A dispatcher in a process of its own, for the crash test: it delivers from the database file
 * given as its argument until it is killed. Prints "ready" once started.
 */
import BetterSqlite3 from 'better-sqlite3';
import { createWebhookDispatcher } from './dispatcher';
import { createSqliteWebhookStore } from './sqlite-store';

const file = process.argv[2];
if (!file) throw new Error('usage: crash-child.ts <database file>');
const db = new BetterSqlite3(file);
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 5000');
const dispatcher = createWebhookDispatcher({
  store: createSqliteWebhookStore(db),
  timeoutMs: Number(process.env.CHILD_TIMEOUT_MS ?? 2_000),
  leaseMarginMs: Number(process.env.CHILD_LEASE_MARGIN_MS ?? 500),
  pollIntervalMs: 20,
  concurrency: 8,
  perEndpointConcurrency: 8,
});
dispatcher.start();
process.stdout.write('ready\n');
setInterval(() => {}, 60_000); // stay alive until killed
