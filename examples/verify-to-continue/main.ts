/**
 * Starts the example site. With IDV_URL, IDV_API_KEY and IDV_WEBHOOK_SECRET it uses that running
 * service; without them it starts one of its own (localIdv.ts). README.md says how.
 */
import { createIdvClient } from 'open-idv/sdk';
import { buildExampleApp } from './app';
import { startLocalIdv, type LocalIdv } from './localIdv';

const env = process.env;
const port = Number(env.PORT ?? 3001);
const host = env.HOST ?? '127.0.0.1';
const publicUrl = env.PUBLIC_URL ?? `http://${host}:${port}`;

function required(name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is needed with IDV_URL (see README.md)`);
  return value;
}

let local: LocalIdv | null = null;
// The service started here goes with this process, however it ends.
process.once('exit', () => local?.stop());
const service = env.IDV_URL
  ? {
      url: env.IDV_URL,
      apiKey: required('IDV_API_KEY'),
      webhookSecret: required('IDV_WEBHOOK_SECRET'),
    }
  : (local = await startLocalIdv({
      port: Number(env.IDV_PORT ?? 3000),
      webhookUrl: `${publicUrl}/webhooks`,
    }));

const app = buildExampleApp({
  idv: createIdvClient({ apiKey: service.apiKey, baseUrl: service.url }),
  idvUrl: service.url,
  publicUrl,
  webhookSecret: service.webhookSecret,
});
await app.listen({ port, host });
console.log(`Example app on ${publicUrl} (verification service: ${service.url})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
