import { request, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A proxy in front of several instances, as a load balancer would be (tests and benches). */
export interface RoundRobinProxy {
  url: string;
  /** Requests sent on to each target, by target URL. */
  counts: Map<string, number>;
  close(): Promise<void>;
}

/** The error body of the spec, for what the proxy itself answers. */
function badGateway(res: ServerResponse, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(502, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { type: 'api_error', message } }));
}

/**
 * An HTTP proxy that sends each request to the next of `targets` in turn. A target that refuses
 * the connection (down, restarting) is skipped, since nothing reached it; one that fails after
 * the request was sent gets the client a 502, as nginx does for a request that is not known to be
 * idempotent: the client decides whether to retry (with its `Idempotency-Key`).
 *
 * @example
 * const proxy = await startRoundRobinProxy(['http://127.0.0.1:4001', 'http://127.0.0.1:4002']);
 * await fetch(`${proxy.url}/sessions`);
 */
export async function startRoundRobinProxy(targets: readonly string[]): Promise<RoundRobinProxy> {
  let next = 0;
  const counts = new Map(targets.map((t) => [t, 0]));

  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse, tried: number) => {
    if (tried >= targets.length) return badGateway(res, 'no instance accepted the connection');
    const target = targets[next++ % targets.length] as string;
    const up = request(new URL(req.url ?? '/', target), {
      method: req.method,
      headers: { ...req.headers, host: new URL(target).host, connection: 'close' },
    });
    let connected = false;
    up.on('socket', (s) => s.once('connect', () => (connected = true)));
    up.on('response', (answer) => {
      counts.set(target, (counts.get(target) ?? 0) + 1);
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    up.on('error', (err) => {
      if (!connected) forward(req, body, res, tried + 1);
      else badGateway(res, `the instance failed mid-request: ${err.message}`);
    });
    up.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => forward(req, Buffer.concat(chunks), res, 0));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
