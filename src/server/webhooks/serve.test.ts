import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookHandler } from '../../sdk/handler';
import type { WebhookEvent } from '../../sdk/event';
import { runCli } from '../cli/main';
import { DEMO_FLOW } from '../demo';
import { startServer, type RunningServer } from '../main';
import { startReceiver, type Receiver } from './test-support';

let dir: string | undefined;
let server: RunningServer | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await server?.close();
  await receiver?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  server = receiver = dir = undefined;
});

async function idv(env: Record<string, string>, ...argv: string[]) {
  const out: string[] = [];
  const code = await runCli(argv, { env, out: (l) => out.push(l), err: () => {} });
  if (code !== 0) throw new Error(`idv ${argv.join(' ')} exited ${code}`);
  return out;
}

describe('idv serve delivers webhooks', () => {
  it('a session created over the API reaches a registered endpoint, signed; CLI events too', async () => {
    dir = mkdtempSync(join(tmpdir(), 'idv-serve-webhooks-'));
    const env = { DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', WEBHOOK_POLL_MS: '100' };
    const [key] = await idv(env, 'keys', 'create', '--mode', 'test');
    const got: WebhookEvent[] = [];
    const handlerBox: { handle?: ReturnType<typeof createWebhookHandler> } = {};
    receiver = await startReceiver((req, res) => {
      void handlerBox.handle!({ rawBody: req.body, headers: req.headers }).then((r) => {
        res.statusCode = r.status;
        res.end(JSON.stringify(r.body));
      });
      return 'handled';
    });
    const [secret] = await idv(env, 'webhooks', 'add', receiver.url);
    handlerBox.handle = createWebhookHandler({ secret: secret!, onEvent: (e) => void got.push(e) });

    server = await startServer({ env, log: () => {}, build: false });
    const res = await fetch(`${server.url}/sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ flow: DEMO_FLOW, clientReferenceId: 'u-1' }),
    });
    expect(res.status).toBeLessThan(300);
    const { session } = (await res.json()) as { session: { id: string } };

    await receiver.waitFor(1, 5_000);
    await new Promise((r) => setTimeout(r, 50)); // the handler's answer
    expect(got).toMatchObject([{ type: 'session.status', sessionId: session.id }]);

    // Written by another process (the CLI): found by the server's poll.
    await idv(env, 'avatars', 'add', '--name', 'Iris', '--gender', 'female', '--image', '/x.svg');
    await receiver.waitFor(2, 5_000);
    await new Promise((r) => setTimeout(r, 50));
    expect(got.map((e) => e.type)).toEqual(['session.status', 'settings.avatars']);
    expect(got[1]!.sessionId).toBe('');
  });
});
