/**
 * The webhooks feature: endpoints, the outbox's deliveries and the dispatcher that `idv serve`
 * starts beside the API (`startWebhookDelivery`). Its tables are in `SERVER_MIGRATIONS`, its
 * commands (`idv webhooks`, `idv events`) in the CLI's list.
 */
import type { Database } from 'better-sqlite3';
import type { Clock } from '../clock';
import { startWebhookDispatcher, webhookConfigFromEnv } from './service';

/**
 * Starts delivering the outbox's events with the settings of the environment (docs/webhooks.md);
 * returns how to stop.
 *
 * @example
 * const stop = startWebhookDelivery({ db: store.db, clock, env: process.env, log: console.error });
 * await stop();
 */
export function startWebhookDelivery(ctx: {
  db: Database;
  clock: Clock;
  env: Record<string, string | undefined>;
  log: (line: string) => void;
}): () => Promise<void> {
  const config = webhookConfigFromEnv(ctx.env);
  const running = startWebhookDispatcher({
    db: ctx.db,
    clock: ctx.clock,
    config,
    onError: (err) => ctx.log(`webhooks: ${err instanceof Error ? err.message : String(err)}`),
  });
  ctx.log(
    `webhooks: delivering (retries after ${config.retryDelaysMs.join(', ')} ms; ` +
      `addresses: ${config.addressPolicy})`,
  );
  return () => running.stop();
}

export { startWebhookDispatcher, webhookConfigFromEnv, type WebhookConfig } from './service';
export { createWebhookDispatcher, type WebhookDispatcher } from './dispatcher';
export { createSqliteWebhookStore, watchOutbox, WEBHOOK_MIGRATIONS } from './sqlite-store';
export {
  appendPlatformEvent,
  sqlitePlatformSettings,
  withPlatformEvent,
  type PlatformChange,
  type PlatformSettings,
} from './platform-settings';
export { pgPlatformSettings } from './pg-platform-settings';
