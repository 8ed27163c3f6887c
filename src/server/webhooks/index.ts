/**
 * The webhooks feature: endpoints, the outbox's deliveries and the dispatcher that `idv serve`
 * starts beside the API (`startWebhookDelivery`). Its tables are in `SERVER_MIGRATIONS`, its
 * commands (`idv webhooks`, `idv events`) in the CLI's list.
 */
import type { Backend } from '../backend';
import type { Clock } from '../clock';
import { watchOutbox as watchPgOutbox } from '../store/pg/outbox';
import { createWebhookDispatcher } from './dispatcher';
import { startWebhookDispatcher, webhookConfigFromEnv } from './service';

/**
 * Starts delivering the outbox's events with the settings of the environment (docs/webhooks.md);
 * returns how to stop. On SQLite, a commit of this process wakes the dispatcher at once (others'
 * are found by a poll); on PostgreSQL, every commit of any instance does (`LISTEN idv_outbox`),
 * and any number of instances deliver side by side, each delivery claimed by one.
 *
 * @example
 * const stop = await startWebhookDelivery({ backend, clock, env: process.env, log: console.error });
 * await stop();
 */
export async function startWebhookDelivery(ctx: {
  backend: Backend;
  clock: Clock;
  env: Record<string, string | undefined>;
  log: (line: string) => void;
}): Promise<() => Promise<void>> {
  const config = webhookConfigFromEnv(ctx.env);
  const onError = (err: unknown) =>
    ctx.log(`webhooks: ${err instanceof Error ? err.message : String(err)}`);
  ctx.log(
    `webhooks: delivering (retries after ${config.retryDelaysMs.join(', ')} ms; ` +
      `addresses: ${config.addressPolicy})`,
  );
  if (ctx.backend.kind === 'sqlite') {
    const running = startWebhookDispatcher({
      db: ctx.backend.sqlite,
      clock: ctx.clock,
      config,
      onError,
    });
    return () => running.stop();
  }
  const dispatcher = createWebhookDispatcher({
    store: ctx.backend.webhooks,
    clock: ctx.clock,
    retryDelaysMs: config.retryDelaysMs,
    timeoutMs: config.timeoutMs,
    addressPolicy: config.addressPolicy,
    concurrency: config.concurrency,
    perEndpointConcurrency: config.perEndpointConcurrency,
    pollIntervalMs: config.pollIntervalMs,
    onError,
  });
  const unwatch = await watchPgOutbox(ctx.backend.store.pg, () => dispatcher.notify());
  dispatcher.start();
  return async () => {
    await unwatch();
    await dispatcher.stop();
  };
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
