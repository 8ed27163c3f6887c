/**
 * The webhooks feature. Importing it (the server's `loadFeatures` does) registers the webhook
 * tables, the `idv webhooks`, `idv events`, `idv avatars` and `idv langs` commands, and the
 * dispatcher that `idv serve` starts beside the API.
 */
import '../cli/avatars';
import '../cli/events';
import '../cli/webhooks';
import { registerExtension } from '../extensions';
import './register';
import { startWebhookDispatcher, webhookConfigFromEnv } from './service';

registerExtension({
  name: 'webhooks',
  start(ctx) {
    const db = ctx.db;
    const config = webhookConfigFromEnv(ctx.env);
    const running = startWebhookDispatcher({
      db,
      clock: ctx.clock,
      config,
      onError: (err) => ctx.log(`webhooks: ${err instanceof Error ? err.message : String(err)}`),
    });
    ctx.log(
      `webhooks: delivering (retries after ${config.retryDelaysMs.join(', ')} ms; ` +
        `addresses: ${config.addressPolicy})`,
    );
    return () => running.stop();
  },
});

export { startWebhookDispatcher, webhookConfigFromEnv, type WebhookConfig } from './service';
export { createWebhookDispatcher, type WebhookDispatcher } from './dispatcher';
export { createSqliteWebhookStore, watchOutbox, WEBHOOK_MIGRATIONS } from './sqlite-store';
export { appendPlatformEvent, withPlatformEvent } from './platform-settings';
